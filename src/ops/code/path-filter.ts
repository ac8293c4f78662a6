/**
 * The `path` argument of `code grep` as a filter on workspace-relative paths: a folder or a file
 * (`services/payment`), or a glob with ripgrep's `-g` semantics (gitignore rules, `{a,b}` alternatives, a
 * leading `!` to exclude): `*.go` matches at any depth, `services/**` below the workspace folder's `services`.
 */
import ignore from 'ignore';
import { invalidArgument } from '../../core/errors.js';

const GLOB_CHARS = /[*?[\]{}!]/;
/** Alternatives a `{a,b}` expansion may produce, at most: a bigger one is a typo, not a filter. */
const MAX_ALTERNATIVES = 64;

/** `a{b,c}d{e,f}` → `abde`, `abdf`, `acde`, `acdf` (no nesting, as in most `-g` patterns). */
export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  const close = open === -1 ? -1 : pattern.indexOf('}', open);
  if (open === -1 || close === -1) return [pattern];
  const head = pattern.slice(0, open);
  const options = pattern.slice(open + 1, close).split(',');
  const tails = expandBraces(pattern.slice(close + 1));
  const expanded = options.flatMap((o) => tails.map((t) => `${head}${o}${t}`));
  if (expanded.length > MAX_ALTERNATIVES)
    throw invalidArgument(`\`path\` expands to more than ${MAX_ALTERNATIVES} alternatives; narrow the glob.`);
  return expanded;
}

/** The caller's folder or file spelling as a workspace-relative prefix. */
function folderOf(spelling: string): string {
  let p = spelling.replace(/\\/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  while (p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

/** Whether a `path` spelling is a glob rather than a folder or file. */
export const isGlob = (spelling: string): boolean => GLOB_CHARS.test(spelling.trim());

/** A predicate on workspace-relative paths, or undefined for "everything". */
export function pathFilter(spelling: string | undefined): ((path: string) => boolean) | undefined {
  if (spelling === undefined) return undefined;
  const trimmed = spelling.trim();
  if (trimmed === '' || trimmed === '.' || trimmed === '*' || trimmed === './') return undefined;
  if (!isGlob(trimmed)) {
    const folder = folderOf(trimmed);
    return (path) => path === folder || path.startsWith(`${folder}/`);
  }
  const exclude = trimmed.startsWith('!');
  const matcher = ignore({ ignorecase: false }).add(expandBraces(exclude ? trimmed.slice(1) : trimmed));
  return (path) => {
    // Roots outside the workspace folder are shown by absolute path; globs are matched below the `/`.
    const relative = path.startsWith('/') ? path.slice(1) : path;
    let matched: boolean;
    try {
      matched = matcher.ignores(relative);
    } catch {
      matched = false;
    }
    return exclude ? !matched : matched;
  };
}
