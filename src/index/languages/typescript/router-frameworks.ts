/**
 * Which router framework a file's routes belong to (express, fastify, koa-router, hono), read from what the
 * file imports; shared by route extraction and router mounts.
 */
import type { FileState, Holder } from './model.js';

export const ROUTER_NAME = /^(?:app|router|server|fastify|\w*Router|\w*router)$/;
const FRAMEWORKS: readonly (readonly [string, string])[] = [
  ['express', 'express'],
  ['fastify', 'fastify'],
  ['@koa/router', 'koa-router'],
  ['koa-router', 'koa-router'],
  ['hono', 'hono'],
];

export function frameworkOf(state: FileState, holder: Holder | undefined): string {
  if (holder?.t === 'router' && holder.via !== '') return holder.via;
  const own =
    holder?.t === 'router' && holder.ctor !== undefined
      ? state.importBindings.get(holder.ctor)?.source
      : undefined;
  const sources =
    own === undefined ? new Set([...state.importBindings.values()].map((b) => b.source)) : new Set([own]);
  return FRAMEWORKS.find(([source]) => sources.has(source))?.[1] ?? 'router';
}
