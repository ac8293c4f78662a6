/**
 * Servlet-container conventions read from annotations, shared by Java and Kotlin: `@WebServlet` classes
 * serve routes (one per `doGet`/`doPost`/… override), and a JAX-RS `@ApplicationPath` application mounts
 * every JAX-RS resource of its module under its path (an `http_mount`, applied at reconcile time).
 */
import type { ContractFact } from '../../../facts.js';
import { annotationArg, type AnnotationInfo, findAnnotation, type ValueResolver } from './annotations.js';
import { normalizePath } from './route-paths.js';

/** `HttpServlet` handler overrides → the method they serve. */
const SERVLET_HANDLERS: Readonly<Record<string, string>> = {
  doGet: 'GET',
  doPost: 'POST',
  doPut: 'PUT',
  doDelete: 'DELETE',
  doHead: 'HEAD',
  doOptions: 'OPTIONS',
  doTrace: 'TRACE',
  doPatch: 'PATCH',
};

/** The `via` of JAX-RS resource routes (annotations.ts), which an `@ApplicationPath` mount selects. */
export const JAXRS_ROUTES = 'JAX-RS';

export interface ServletClass {
  readonly id: number;
  readonly nameLine: number;
  readonly annotations: readonly AnnotationInfo[];
  readonly methods: readonly { readonly id: number; readonly name: string; readonly line: number }[];
}

interface Sink {
  addContract(fact: ContractFact): void;
}

/**
 * The module folder a source file belongs to, root-relative: what comes before `src/main/` (Maven and
 * Gradle layout), else before `src/`, else the root (`''`).
 */
export function moduleFolderOf(path: string): string {
  const padded = `/${path}`;
  const at = padded.includes('/src/main/') ? padded.indexOf('/src/main/') : padded.indexOf('/src/');
  return at <= 0 ? '' : padded.slice(1, at);
}

/**
 * A servlet URL pattern as a route path: `/x` exact, `/x/*` a prefix (one `{path}` parameter stands for
 * the rest), `/` the default servlet. Extension patterns (`*.do`) name no path: undefined.
 */
export function servletPatternPath(pattern: string): string | undefined {
  const trimmed = pattern.trim();
  if (trimmed === '' || trimmed.startsWith('*.')) return undefined;
  if (trimmed === '/*') return '/{path}';
  return normalizePath(trimmed.endsWith('/*') ? `${trimmed.slice(0, -2)}/{path}` : trimmed);
}

/**
 * The methods a servlet class serves: its `doGet`/`doPost`/… overrides; a `service` override or no
 * handler of its own (handlers inherited from a base class in another file) serves any method.
 */
function servletMethods(cls: ServletClass): { method: string; symbol: number; line: number }[] {
  const handlers = cls.methods.flatMap((m) => {
    const method = SERVLET_HANDLERS[m.name];
    return method === undefined ? [] : [{ method, symbol: m.id, line: m.line }];
  });
  const service = cls.methods.find((m) => m.name === 'service');
  if (service !== undefined) return [{ method: 'ANY', symbol: service.id, line: service.line }];
  return handlers.length > 0 ? handlers : [{ method: 'ANY', symbol: cls.id, line: cls.nameLine }];
}

/** `@WebServlet("/x")`, `@WebServlet(urlPatterns = {"/a", "/b/*"})` → one route per pattern and method. */
function webServletRoutes(cls: ServletClass, resolver: ValueResolver, facts: Sink): void {
  const ann = findAnnotation(cls.annotations, 'WebServlet');
  if (ann === undefined) return;
  const node = annotationArg(ann, [undefined, 'value', 'urlPatterns']);
  const patterns = node === undefined ? [] : (resolver.strings(node) ?? []);
  const paths = [...new Set(patterns.map(servletPatternPath).filter((p): p is string => p !== undefined))];
  for (const path of paths)
    for (const { method, symbol, line } of servletMethods(cls))
      facts.addContract({ kind: 'http_route', method, path, symbol, line, via: '@WebServlet' });
}

/** `@ApplicationPath("/rest")` → the module's JAX-RS resources are served under `/rest`. */
function applicationPath(cls: ServletClass, resolver: ValueResolver, path: string, facts: Sink): void {
  const ann = findAnnotation(cls.annotations, 'ApplicationPath');
  const node = ann === undefined ? undefined : annotationArg(ann, [undefined, 'value']);
  const value = node === undefined ? undefined : resolver.strings(node)?.[0];
  if (value === undefined) return;
  // `@ApplicationPath("rest/*")` is also accepted by containers: the wildcard adds nothing.
  const prefix = normalizePath(value.replace(/\/?\*$/, ''));
  facts.addContract({
    kind: 'http_mount',
    prefix,
    target: `folder:${moduleFolderOf(path)}`,
    routes: JAXRS_ROUTES,
    symbol: cls.id,
    line: cls.nameLine,
    via: '@ApplicationPath',
  });
}

/** Servlet routes and the JAX-RS application path of one class of the file at `path` (root-relative). */
export function servletContracts(
  cls: ServletClass,
  resolver: ValueResolver,
  path: string,
  facts: Sink,
): void {
  webServletRoutes(cls, resolver, facts);
  applicationPath(cls, resolver, path, facts);
}
