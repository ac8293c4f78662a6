/** Path helpers shared by the resolvers: the paths they compare are `/`-separated, whatever the platform. */
import path from 'node:path';
import type { IndexedFile } from '../../snapshot.js';

export const slash = (p: string): string => p.replace(/\\/g, '/');
export const dirOf = (p: string): string => p.slice(0, Math.max(p.lastIndexOf('/'), 0));
export const join = (...parts: string[]): string => path.posix.join(...parts);
export const isRelative = (s: string): boolean =>
  s === '.' || s === '..' || s.startsWith('./') || s.startsWith('../');
/** Plain code-unit order, the same on every machine, so that edges come out in a stable order. */
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The folder of a file's root: its absolute path minus the root-relative part. */
export const rootDirOf = (file: IndexedFile): string => {
  const abs = slash(file.absolutePath);
  return abs.slice(0, abs.length - file.path.length - 1);
};
