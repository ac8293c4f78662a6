/**
 * One file named by a caller, found in the snapshot: written workspace-relative (as every answer shows
 * paths), relative to its root, or absolute. Only indexed files are ever returned, so nothing outside the
 * roots can be read through it; a path that names no indexed file is answered with why (the guard rejected
 * it) or with the closest indexed paths.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../../core/errors.js';
import { editDistance } from '../../core/suggest.js';
import type { IndexedFile, RejectedFile, SnapshotReader } from '../../index/reader.js';
import { listedRootNames } from '../../core/root-names.js';
import { displayOf, displayPath } from './workspace-paths.js';

/** Close matches named by a "not found" answer. */
const SUGGESTED = 5;

/** The caller's spelling as the index spells paths: `/`-separated, no `./`, no trailing separator. */
function normalised(spelling: string): string {
  let p = spelling.trim().replace(/\\/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

/** Root-relative forms the spelling may stand for: itself, and for an absolute path, inside each root. */
function rootRelativeForms(snapshot: SnapshotReader, spelling: string): { root: string; path: string }[] {
  const forms: { root: string; path: string }[] = [];
  for (const root of snapshot.roots) {
    const rootPath = root.path.split(path.sep).join('/');
    if (path.isAbsolute(spelling)) {
      if (spelling.startsWith(`${rootPath}/`))
        forms.push({ root: root.name, path: spelling.slice(rootPath.length + 1) });
    } else {
      forms.push({ root: root.name, path: spelling });
    }
  }
  return forms;
}

/** Every (root, path) the spelling may name, the workspace-relative reading first. */
function candidatesOf(
  snapshot: SnapshotReader,
  spelling: string,
): { root: string; path: string; workspaceRelative: boolean }[] {
  const found: { root: string; path: string; workspaceRelative: boolean }[] = [];
  if (!path.isAbsolute(spelling)) {
    for (const root of snapshot.roots) {
      const prefix = root.name === '.' ? '' : `${root.name}/`;
      if (prefix === '' || spelling.startsWith(prefix))
        found.push({ root: root.name, path: spelling.slice(prefix.length), workspaceRelative: true });
    }
  }
  for (const form of rootRelativeForms(snapshot, spelling)) found.push({ ...form, workspaceRelative: false });
  return found;
}

const describeRejection = (file: RejectedFile): string =>
  `${file.reason.replace(/_/g, ' ')}${file.detail ? `: ${file.detail}` : ''}`;

/**
 * The indexed file the caller named. Throws a `not_found` ToolError naming the reason a file was not indexed,
 * the files a root-relative spelling is ambiguous between, or the closest indexed paths.
 */
export function indexedFileOf(snapshot: SnapshotReader, argument: string, spelling: string): IndexedFile {
  const wanted = normalised(spelling);
  const forms = candidatesOf(snapshot, wanted);
  // A workspace-relative spelling wins: it is how answers show paths.
  const exact = forms
    .filter((f) => f.workspaceRelative)
    .map((f) => snapshot.file(f.root, f.path))
    .find((f) => f !== undefined);
  if (exact) return exact;
  const relative = [
    ...new Set(
      forms
        .filter((f) => !f.workspaceRelative)
        .map((f) => snapshot.file(f.root, f.path))
        .filter((f): f is IndexedFile => f !== undefined),
    ),
  ];
  if (relative.length === 1 && relative[0]) return relative[0];
  if (relative.length > 1) {
    const listed = relative.map((f) => `\`${displayOf(snapshot, f)}\``).join(', ');
    throw new ToolError(
      'not_found',
      `\`${argument}\` "${spelling}" names a file in ${relative.length} roots: ${listed}. Pass one of these workspace-relative paths.`,
    );
  }
  refuseOutsideRoots(snapshot, argument, spelling);
  throw notIndexed(snapshot, argument, spelling, wanted, forms);
}

/**
 * Refuses a file or folder spelling no root can hold — an absolute path under no root, or a relative one
 * climbing out with `..` — as the path jail refuses path arguments, rather than as a file not found.
 */
export function refuseOutsideRoots(snapshot: SnapshotReader, argument: string, spelling: string): void {
  const wanted = normalised(spelling);
  const outside = path.isAbsolute(wanted)
    ? rootRelativeForms(snapshot, wanted).length === 0 &&
      !snapshot.roots.some((root) => root.path.split(path.sep).join('/') === wanted)
    : path.posix.normalize(wanted).split('/')[0] === '..';
  if (outside) throw outsideRoots(snapshot, argument, spelling);
}

/** Said as the path jail says it for path arguments: where the path must be, and how to write one. */
function outsideRoots(snapshot: SnapshotReader, argument: string, spelling: string): ToolError {
  const listed = listedRootNames(snapshot.roots.map((r) => r.name));
  return new ToolError(
    'outside_roots',
    `\`${argument}\` must be inside the workspace roots (${listed || 'none configured'}); ` +
      `${JSON.stringify(spelling)} is outside them. Use a workspace-relative path, as answers show them.`,
  );
}

function notIndexed(
  snapshot: SnapshotReader,
  argument: string,
  spelling: string,
  wanted: string,
  forms: readonly { root: string; path: string }[],
): ToolError {
  const rejected = snapshot.rejected.find((r) => forms.some((f) => f.root === r.root && f.path === r.path));
  if (rejected) {
    return new ToolError(
      'not_found',
      `\`${displayPath(snapshot.roots, rejected.root, rejected.path)}\` is not indexed: it was rejected (${describeRejection(rejected)}). ` +
        'Read it directly if you need it.',
    );
  }
  const onDisk = forms.some((f) => {
    const root = snapshot.roots.find((r) => r.name === f.root);
    const absolute = root && path.join(root.path, ...f.path.split('/'));
    return absolute !== undefined && !f.path.split('/').includes('..') && isFile(absolute);
  });
  const close = closestPaths(snapshot, wanted);
  const suggestion =
    close.length > 0 ? ` Closest indexed paths: ${close.map((c) => `\`${c}\``).join(', ')}.` : '';
  const why = onDisk
    ? `\`${argument}\` "${spelling}" exists but is not indexed (ignored, excluded by the configuration, or not a source file meshlens reads).`
    : `No indexed file at \`${argument}\` "${spelling}" (paths are workspace-relative, e.g. as answers show them).`;
  return new ToolError('not_found', `${why}${suggestion} \`code files\` finds files by part of their path.`);
}

function isFile(absolute: string): boolean {
  try {
    return existsSync(absolute) && statSync(absolute).isFile();
  } catch {
    return false;
  }
}

/**
 * Indexed paths closest to what was asked: same file name first (any folder, any case), then the smallest
 * edit distance over the whole path among files whose name is within a few edits.
 */
export function closestPaths(snapshot: SnapshotReader, wanted: string, count = SUGGESTED): string[] {
  const name = wanted.slice(wanted.lastIndexOf('/') + 1).toLowerCase();
  const scored: { path: string; sameName: boolean; distance: number }[] = [];
  for (const file of snapshot.files) {
    const base = file.path.slice(file.path.lastIndexOf('/') + 1).toLowerCase();
    const sameName = base === name;
    if (!sameName && editDistance(base, name) > Math.max(2, Math.floor(name.length / 4))) continue;
    const shown = displayOf(snapshot, file);
    scored.push({ path: shown, sameName, distance: editDistance(shown.toLowerCase(), wanted.toLowerCase()) });
  }
  return scored
    .sort(
      (a, b) =>
        Number(b.sameName) - Number(a.sameName) || a.distance - b.distance || (a.path < b.path ? -1 : 1),
    )
    .slice(0, count)
    .map((s) => s.path);
}
