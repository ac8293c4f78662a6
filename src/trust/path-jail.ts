import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedRoot } from '../core/config.js';
import { diskSpelling } from '../core/disk-spelling.js';
import { ToolError } from '../core/errors.js';
import { listedRootNames } from '../core/root-names.js';

/** Per-argument leniency: a history question may name a file that was deleted since. */
export interface PathCheck {
  /** Accept a path that does not exist (still inside a root, judged through its deepest existing folder). */
  readonly mayBeMissing?: boolean;
}

export type PathJail = (argument: string, value: string, check?: PathCheck) => string | undefined;

export interface JailOptions {
  readonly roots: readonly ResolvedRoot[];
  /** Relative paths resolve against it first. */
  readonly workspaceDir: string;
  /** Client prefix → host path, e.g. `/workspace` (a container path) → the folder on this machine. */
  readonly mountAliases?: Readonly<Record<string, string>>;
  /** Default: true on darwin and win32, whose usual file systems ignore case. */
  readonly caseInsensitive?: boolean;
}

/** Spellings that mean "every root" whatever the workspace looks like. */
const ALL_ROOTS = new Set(['.', './', '*']);
/** The caller's spelling is echoed back at most this long. */
const ECHO_LIMIT = 200;
/** Dangling symlinks followed by hand before giving up (the kernel's own limit is 40). */
const MAX_LINK_HOPS = 40;

interface Root {
  readonly name: string;
  readonly path: string;
  /** `path` as compared: NFC, lower-cased when case does not matter. */
  readonly key: string;
}

/**
 * Builds the function the registry calls for every path-like argument. It returns the canonical absolute path
 * inside a root, spelt as on disk, `undefined` for a spelling that means "all roots", and throws a ToolError
 * otherwise. What it returns is exactly what was checked, so no later step can reinterpret the path.
 */
export function createPathJail(options: JailOptions): PathJail {
  const caseInsensitive =
    options.caseInsensitive ?? (process.platform === 'darwin' || process.platform === 'win32');
  const fold = (p: string): string => (caseInsensitive ? p.toLowerCase() : p);
  const roots: Root[] = options.roots.map((root) => {
    const canonical = canonicalise(path.resolve(root.path.normalize('NFC'))).normalize('NFC');
    return { name: root.name, path: canonical, key: fold(canonical) };
  });
  const workspaceDir = path.resolve(options.workspaceDir.normalize('NFC'));
  const workspaceKey = fold(canonicalise(workspaceDir).normalize('NFC'));
  const workspaceIsRoot = roots.some((root) => root.key === workspaceKey);
  // Longest prefix first, so `/workspace/services` wins over `/workspace`.
  const aliases = Object.entries(options.mountAliases ?? {})
    .map(([from, to]) => [trimSeparators(from.normalize('NFC')), to.normalize('NFC')] as const)
    .filter(([from]) => from.length > 0)
    .sort((a, b) => b[0].length - a[0].length);

  return (argument: string, value: string, check?: PathCheck): string | undefined => {
    const spelling = value.trim();
    if (spelling === '') {
      throw new ToolError(
        'invalid_argument',
        `\`${argument}\` is empty. Use a path relative to the workspace root or omit \`${argument}\` to search everything.`,
      );
    }
    if (spelling.includes('\0')) {
      throw new ToolError(
        'invalid_argument',
        `\`${argument}\` contains a NUL character; ${echo(spelling)} is not a path.`,
      );
    }
    const nfc = spelling.normalize('NFC');
    if (ALL_ROOTS.has(nfc)) return undefined;

    const aliased = applyAlias(nfc, aliases);
    const lexical = path.resolve(workspaceDir, aliased);
    // Compared in NFC, but returned as spelt on disk: that is how the index holds every file's path, so a
    // folder stored in NFD matches a scope typed in either spelling.
    const canonical = canonicalise(diskSpelling(lexical));
    const key = fold(canonical.normalize('NFC'));

    const root = roots.find((r) => key === r.key || isBelow(key, r.key));
    if (!root) {
      // The workspace folder is the parent of its roots; naming it means "all of them".
      if (key === workspaceKey && !workspaceIsRoot) return undefined;
      throw outside(argument, spelling, roots);
    }
    if (!exists(canonical) && check?.mayBeMissing !== true) {
      throw new ToolError(
        'not_found',
        `\`${argument}\` ${echo(spelling)} was not found in root ${root.name}. Check the spelling (paths are relative ` +
          `to the workspace root) or omit \`${argument}\` to search everything.`,
      );
    }
    return canonical;
  };
}

function outside(argument: string, spelling: string, roots: readonly Root[]): ToolError {
  const listed = listedRootNames(roots.map((r) => r.name));
  return new ToolError(
    'outside_roots',
    `\`${argument}\` must be inside the workspace roots (${listed || 'none configured'}); ${echo(spelling)} is outside ` +
      `them. Use a path relative to the workspace root or omit \`${argument}\` to search everything.`,
  );
}

/** The caller's own spelling, quoted and escaped (no line breaks get into the message), cut at ECHO_LIMIT. */
function echo(spelling: string): string {
  const chars = [...spelling];
  return JSON.stringify(chars.length > ECHO_LIMIT ? `${chars.slice(0, ECHO_LIMIT).join('')}…` : spelling);
}

function trimSeparators(p: string): string {
  let end = p.length;
  while (end > 1 && (p[end - 1] === '/' || p[end - 1] === '\\')) end--;
  return p.slice(0, end);
}

/** Replaces a whole leading segment run: `/workspace` maps `/workspace/x` but not `/workspace-old/x`. */
function applyAlias(value: string, aliases: readonly (readonly [string, string])[]): string {
  for (const [from, to] of aliases) {
    if (value === from) return to;
    const next = value[from.length];
    if (value.startsWith(from) && (next === '/' || next === '\\')) return to + value.slice(from.length);
  }
  return value;
}

/** Segment-wise: `/srv/svc` contains `/srv/svc/a` but not `/srv/svc-secret`. */
function isBelow(candidate: string, root: string): boolean {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

/** Follows links: a link that still dangles (or loops) after canonicalisation leads nowhere. */
function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves every symlink. A path that does not exist yet is the canonical deepest existing ancestor plus the
 * rest, so that `root/link-to-outside/missing` is still seen to be outside. A dangling symlink is followed by
 * hand for the same reason: its target decides where the path is, not the folder holding the link.
 */
function canonicalise(absolute: string, hops = 0): string {
  try {
    return realpathSync.native(absolute);
  } catch {
    // Missing, not a folder, a loop or not readable: fall back to the deepest ancestor that resolves.
  }
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    const parent = path.dirname(current);
    if (parent === current) return absolute;
    rest.unshift(path.basename(current));
    current = parent;
    let resolvedParent: string;
    try {
      resolvedParent = realpathSync.native(current);
    } catch {
      continue;
    }
    const first = path.join(resolvedParent, rest[0] ?? '');
    if (hops < MAX_LINK_HOPS && isSymlink(first)) {
      const target = readLink(first);
      if (target !== undefined) {
        return canonicalise(path.resolve(resolvedParent, target, ...rest.slice(1)), hops + 1);
      }
    }
    return path.join(resolvedParent, ...rest);
  }
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function readLink(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}
