/**
 * The bounded look at a workspace the service model is read from: one walk that lists every folder's files
 * (skipping hidden, generated and tool folders), and small reads of the files the readers ask for. Both
 * are capped, so a huge or odd tree costs a bounded amount, never a full crawl.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_EXCLUDES } from '../crawl.js';

/** Folder names the walk never enters: the crawler's unconditional excludes. */
const SKIPPED_NAMES = new Set(
  DEFAULT_EXCLUDES.filter((p) => !p.includes('*')).map((p) => p.replace(/\/$/, '')),
);
const SKIPPED_SUFFIXES = DEFAULT_EXCLUDES.filter((p) => p.startsWith('*')).map((p) =>
  p.slice(1).replace(/\/$/, ''),
);
/** At most this many folders are listed; deeper than this is not looked at. */
const MAX_FOLDERS = 20_000;
const MAX_DEPTH = 24;
/** Manifests and deploy files larger than this are not read (a generated bundle is not a declaration). */
export const READ_CAP = 512 * 1024;

const skippedFolder = (name: string): boolean =>
  name.startsWith('.') || SKIPPED_NAMES.has(name) || SKIPPED_SUFFIXES.some((s) => name.endsWith(s));

/** Workspace-relative, `/`-separated; `.` is the workspace itself. */
export const joinRel = (folder: string, name: string): string =>
  folder === '.' ? name : `${folder}/${name}`;
export const parentOf = (rel: string): string => {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '.' : rel.slice(0, slash);
};
export const baseName = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);
/** Whether `inner` is `outer` or inside it. */
export const within = (inner: string, outer: string): boolean =>
  outer === '.' || inner === outer || inner.startsWith(`${outer}/`);

/** Normalises `a/./b/../c`, `./x/` to a workspace-relative folder; undefined when it leaves the workspace. */
export function normalizeRel(rel: string): string | undefined {
  const parts: string[] = [];
  for (const part of rel.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length === 0 ? '.' : parts.join('/');
}

export class WorkspaceFiles {
  /** Folder → its file names (sorted); only folders the walk listed. */
  readonly folders = new Map<string, readonly string[]>();
  /** Folder → its sub-folder names the walk entered (sorted). */
  readonly children = new Map<string, readonly string[]>();
  /** True when a cap stopped the walk before it saw everything. */
  truncated = false;
  private readonly texts = new Map<string, string | undefined>();

  constructor(readonly dir: string) {
    this.walk();
  }

  private walk(): void {
    const queue: { rel: string; depth: number }[] = [{ rel: '.', depth: 0 }];
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (this.folders.size >= MAX_FOLDERS) {
        this.truncated = true;
        break;
      }
      const files: string[] = [];
      const dirs: string[] = [];
      for (const entry of listDir(path.join(this.dir, next.rel))) {
        if (entry.isFile()) files.push(entry.name);
        else if (entry.isDirectory() && !skippedFolder(entry.name)) dirs.push(entry.name);
      }
      files.sort();
      dirs.sort();
      this.folders.set(next.rel, files);
      this.children.set(next.rel, next.depth < MAX_DEPTH ? dirs : []);
      if (next.depth >= MAX_DEPTH && dirs.length > 0) this.truncated = true;
      if (next.depth < MAX_DEPTH)
        for (const name of dirs) queue.push({ rel: joinRel(next.rel, name), depth: next.depth + 1 });
    }
  }

  has(folder: string): boolean {
    return this.folders.has(folder);
  }

  filesOf(folder: string): readonly string[] {
    return this.folders.get(folder) ?? [];
  }

  /** The text of a workspace-relative file, or undefined when missing, too large or unreadable. */
  read(rel: string): string | undefined {
    if (this.texts.has(rel)) return this.texts.get(rel);
    const text = readSmall(path.join(this.dir, ...rel.split('/')));
    this.texts.set(rel, text);
    return text;
  }

  /** Every listed folder at or below `folder`, in walk order. */
  foldersUnder(folder: string): string[] {
    return [...this.folders.keys()].filter((rel) => within(rel, folder));
  }
}

function listDir(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function readSmall(file: string): string | undefined {
  try {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (!stats?.isFile() || stats.size > READ_CAP) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
