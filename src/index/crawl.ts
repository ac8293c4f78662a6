/**
 * The file walk: every regular file under the workspace roots that the ignore files
 * (`crawl-ignore-files.ts`) and the unconditional excludes (`crawl-excludes.ts`) leave in, and the watcher's
 * per-path version of the same decision.
 */
import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { baseFilter, type BaseFilter, type ExcludeOptions } from './crawl-excludes.js';
import {
  enterDir,
  isIgnored,
  layersAbove,
  lstatQuiet,
  probeDir,
  probeEntries,
  withOwnFiles,
  type Layers,
} from './crawl-ignore-files.js';

export { DEFAULT_EXCLUDES, SECRET_FILE_PATTERNS } from './crawl-excludes.js';

export interface CrawlRoot {
  readonly name: string;
  /** Absolute and canonical (symlinks resolved). */
  readonly path: string;
}

export interface CrawledFile {
  readonly root: string;
  /** Relative to the root, '/'-separated. */
  readonly path: string;
  readonly absolutePath: string;
  readonly size: number;
  readonly mtimeMs: number;
  /**
   * Set when the walk could not use this file or folder (a path over the system's length limit, a folder it
   * may not list): why, for the index run to reject it and list it, as it lists any other rejected file.
   */
  readonly unusable?: string;
}

export interface CrawlOptions extends ExcludeOptions {
  readonly signal?: AbortSignal;
}

const normalizeRoots = (roots: readonly CrawlRoot[]): CrawlRoot[] =>
  roots.map((root) => ({ name: root.name, path: path.resolve(root.path) }));

const isInside = (child: string, parent: string): boolean =>
  child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/**
 * UTF-8 byte order (= code point order). JavaScript compares UTF-16 units, which disagrees only when a
 * surrogate meets a unit at or above U+E000; shifting both ranges fixes that without encoding anything.
 */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

interface Pending {
  readonly abs: string;
  readonly rel: string;
  readonly layers: Layers;
}

/** A file or folder gone (or replaced by a file) since its folder was listed: nothing to index or report. */
const VANISHED = new Set(['ENOENT', 'ENOTDIR']);
const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

/** Thousands separators without Intl, so the text is the same on every machine. */
const formatInt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Why a path cannot be used, in words a user can act on. */
export function unusableDetail(kind: 'file' | 'folder', absolutePath: string, error: unknown): string {
  const code = codeOf(error) ?? 'error';
  if (code === 'ENAMETOOLONG') {
    const bytes = Buffer.byteLength(absolutePath);
    return `${kind} path is ${formatInt(bytes)} bytes, longer than the system allows (ENAMETOOLONG); shorten it or add it to [workspace] exclude`;
  }
  if (code === 'EACCES' || code === 'EPERM') return `${kind} cannot be read (${code}); check its permissions`;
  return `${kind} cannot be read (${code})`;
}

/** What the walk does with an error on one path below a root: skip it if it vanished, else report it. */
function unusableEntry(
  root: CrawlRoot,
  rel: string,
  abs: string,
  kind: 'file' | 'folder',
  error: unknown,
): CrawledFile | undefined {
  if (VANISHED.has(codeOf(error) ?? '')) return undefined;
  return {
    root: root.name,
    path: rel,
    absolutePath: abs,
    size: 0,
    mtimeMs: 0,
    unusable: unusableDetail(kind, abs, error),
  };
}

/**
 * How long the walk may hold the event loop before yielding. Synchronous readdir/lstat is several times
 * faster than promise-per-file on a small machine (measured: 50k files, about 0.25 s against 0.9-1.8 s), so
 * the walk runs synchronously in slices and yields between them, which keeps the server answering and lets
 * an abort land.
 */
const SLICE_MS = 15;
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function walkRoot(
  root: CrawlRoot,
  nested: ReadonlySet<string>,
  base: BaseFilter,
  signal: AbortSignal | undefined,
): Promise<CrawledFile[]> {
  const out: CrawledFile[] = [];
  const stack: Pending[] = [{ abs: root.path, rel: '', layers: layersAbove(root.path) }];

  const visit = ({ abs, rel, layers: inherited }: Pending): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (error) {
      // A root that cannot be listed stops the run, which says why (a missing root is not an empty index);
      // one folder below it never does.
      if (rel === '') throw error;
      const entry = unusableEntry(root, rel, abs, 'folder', error);
      if (entry) out.push(entry);
      return;
    }
    const layers = withOwnFiles(inherited, abs, rel, probeEntries(entries));
    for (const entry of entries) {
      const name = entry.name;
      const childRel = rel === '' ? name : `${rel}/${name}`;
      const childAbs = path.join(abs, name);
      // Dirent types have lstat semantics: a symlink is neither a file nor a folder here, so it is skipped.
      if (entry.isDirectory()) {
        if (nested.has(childAbs) || base.excludes(childRel, name, true) || isIgnored(layers, `${childRel}/`))
          continue;
        stack.push({ abs: childAbs, rel: childRel, layers: enterDir(layers, childRel) });
      } else if (entry.isFile() && !base.excludes(childRel, name, false) && !isIgnored(layers, childRel)) {
        let stat: Stats | undefined;
        try {
          stat = lstatSync(childAbs);
        } catch (error) {
          const entry = unusableEntry(root, childRel, childAbs, 'file', error);
          if (entry) out.push(entry);
          continue;
        }
        // A file replaced by something else since readdir is left out.
        if (!stat.isFile()) continue;
        out.push({
          root: root.name,
          path: childRel,
          absolutePath: childAbs,
          size: stat.size,
          mtimeMs: stat.mtimeMs,
        });
      }
    }
  };

  let sliceStart = performance.now();
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
    signal?.throwIfAborted();
    visit(next);
  }
  return out.sort((a, b) => compareBytes(a.path, b.path));
}

/** Roots strictly inside `root`: the ancestor's walk leaves them to their own, more specific, root. */
function nestedRoots(roots: readonly CrawlRoot[], root: CrawlRoot): Set<string> {
  return new Set(roots.filter((other) => isInside(other.path, root.path)).map((other) => other.path));
}

/** A root listed twice (same folder) is crawled once, under its first name. */
const isDuplicate = (roots: readonly CrawlRoot[], index: number): boolean =>
  roots.findIndex((other) => other.path === roots[index]?.path) < index;

/**
 * Every regular file under the roots that neither an ignore file, the default excludes, the secret patterns
 * nor `exclude` leaves out. Symlinks are never followed. Sorted by root order, then by path in byte order.
 */
export async function crawl(roots: readonly CrawlRoot[], options?: CrawlOptions): Promise<CrawledFile[]> {
  const signal = options?.signal;
  signal?.throwIfAborted();
  const normalized = normalizeRoots(roots);
  const base = baseFilter(options);
  const perRoot = await Promise.all(
    normalized.map((root, index) =>
      isDuplicate(normalized, index) ? [] : walkRoot(root, nestedRoots(normalized, root), base, signal),
    ),
  );
  return perRoot.flat();
}

/**
 * For the watcher: is this absolute path one the crawl would yield (most specific root, not ignored, not
 * excluded)? Returns the CrawledFile-like identity {root, path} or undefined. O(depth) — re-reads only the
 * ignore files on the path. A path that no longer exists is classified by its name (so a deletion can be
 * applied); one that exists but is not a regular file, or lies under a symlinked folder, is not a candidate.
 */
export function classifyPath(
  roots: readonly CrawlRoot[],
  absolutePath: string,
  options?: CrawlOptions,
): { root: string; path: string } | undefined {
  const target = path.resolve(absolutePath);
  let owner: CrawlRoot | undefined;
  for (const root of normalizeRoots(roots)) {
    if (isInside(target, root.path) && (!owner || root.path.length > owner.path.length)) owner = root;
  }
  if (!owner) return undefined;

  const segments = path.relative(owner.path, target).split(path.sep);
  const base = baseFilter(options);
  let layers = withOwnFiles(layersAbove(owner.path), owner.path, '', probeDir(owner.path));
  let abs = owner.path;
  let rel = '';
  for (const [index, name] of segments.entries()) {
    abs = path.join(abs, name);
    rel = rel === '' ? name : `${rel}/${name}`;
    // A path already gone is judged by its name, so that the watcher can drop it.
    const stat = lstatQuiet(abs);
    if (index < segments.length - 1) {
      if (stat && !stat.isDirectory()) return undefined;
      if (base.excludes(rel, name, true) || isIgnored(layers, `${rel}/`)) return undefined;
      layers = withOwnFiles(enterDir(layers, rel), abs, rel, probeDir(abs));
    } else {
      if (stat && !stat.isFile()) return undefined;
      if (base.excludes(rel, name, false) || isIgnored(layers, rel)) return undefined;
    }
  }
  return { root: owner.name, path: rel };
}
