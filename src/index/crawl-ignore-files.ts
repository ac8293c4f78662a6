/**
 * Ignore files as git and ripgrep read them: `.gitignore` files up to the enclosing repository's top, its
 * `.git/info/exclude`, and `.ignore` files, each layered over the folder it sits in. The crawl and the
 * watcher's per-path check share these rules, so both leave out exactly the same files.
 */
import { lstatSync, readFileSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';

export type Matcher = ReturnType<typeof ignore>;

/** Git's own default: case-insensitive matching where the file system usually is. */
export const IGNORE_CASE = process.platform === 'darwin' || process.platform === 'win32';
export const newMatcher = (): Matcher => ignore({ ignorecase: IGNORE_CASE });

/**
 * The rules of one ignore file. The file sees a root-relative path `rel` as `prefix + rel.slice(strip)`:
 * files inside the root strip their own folder; files above the root (same repository) prepend the root's
 * location.
 */
interface Layer {
  readonly ig: Matcher;
  readonly prefix: string;
  readonly strip: number;
}

/** Ignore files in force inside one folder, most specific first. */
export interface Layers {
  /** `.ignore` files: they apply across repository boundaries and outrank `.gitignore` (as in ripgrep). */
  readonly dot: readonly Layer[];
  /** `.gitignore` files up to the enclosing repository's top, then that repository's `.git/info/exclude`. */
  readonly git: readonly Layer[];
}

interface Probe {
  readonly gitignore: boolean;
  readonly dotIgnore: boolean;
  readonly git: 'dir' | 'file' | undefined;
}

const local = (layer: Layer, rel: string): string => layer.prefix + rel.slice(layer.strip);

/** First layer with an opinion decides: 'ignored', 'unignored' (an explicit `!`) or undefined. */
function verdict(layers: readonly Layer[], rel: string): boolean | undefined {
  for (const layer of layers) {
    const result = layer.ig.test(local(layer, rel));
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return undefined;
}

/** `rel` carries a trailing '/' for a folder, so folder-only patterns (`build/`) apply to it alone. */
export const isIgnored = (layers: Layers, rel: string): boolean =>
  verdict(layers.dot, rel) ?? verdict(layers.git, rel) ?? false;

const escapeGlob = (text: string): string => text.replace(/[\\*?[\]]/g, '\\$&');

/**
 * The `ignore` package treats everything under an ignored folder as ignored by that same file. Git instead
 * decides a folder once, with all files together, and tests what is inside it on its own. So when a folder
 * is entered although one file's rules exclude it (another file re-included it), that file gets a copy with
 * the folder re-included, leaving its rules free to judge the folder's contents one by one.
 */
function reinclude(layer: Layer, localDir: string): Layer {
  if (!layer.ig.test(`${localDir}/`).ignored) return layer;
  const ig = newMatcher()
    .add(layer.ig)
    .add(`!/${escapeGlob(localDir)}/`);
  return { ig, prefix: layer.prefix, strip: layer.strip };
}

function reincludeAll(layers: readonly Layer[], rel: string): readonly Layer[] {
  let changed = false;
  const next = layers.map((layer) => {
    const fixed = reinclude(layer, local(layer, rel));
    changed ||= fixed !== layer;
    return fixed;
  });
  return changed ? next : layers;
}

export function enterDir(parent: Layers, rel: string): Layers {
  return { dot: reincludeAll(parent.dot, rel), git: reincludeAll(parent.git, rel) };
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** `.git/info/exclude`, following a worktree's or submodule's `gitdir:` file to the shared git folder. */
function readInfoExclude(repoDir: string, git: 'dir' | 'file'): string | undefined {
  let gitDir = path.join(repoDir, '.git');
  if (git === 'file') {
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readText(gitDir) ?? '');
    if (!pointer?.[1]) return undefined;
    gitDir = path.resolve(repoDir, pointer[1]);
    const common = readText(path.join(gitDir, 'commondir'))?.trim();
    if (common) gitDir = path.resolve(gitDir, common);
  }
  return readText(path.join(gitDir, 'info', 'exclude'));
}

function layerFrom(text: string | undefined, prefix: string, strip: number): Layer | undefined {
  if (text === undefined) return undefined;
  const ig = newMatcher().add(text);
  return { ig, prefix, strip };
}

/** Folder `dir` (root-relative `rel`) adds its own ignore files in front of what it inherits. */
export function withOwnFiles(inherited: Layers, dir: string, rel: string, probe: Probe): Layers {
  const strip = rel === '' ? 0 : rel.length + 1;
  const dotLayer = probe.dotIgnore ? layerFrom(readText(path.join(dir, '.ignore')), '', strip) : undefined;
  const gitLayer = probe.gitignore ? layerFrom(readText(path.join(dir, '.gitignore')), '', strip) : undefined;
  const dot = dotLayer ? [dotLayer, ...inherited.dot] : inherited.dot;
  let git = inherited.git;
  if (probe.git) {
    // A nested repository is a boundary: the enclosing repository's .gitignore files stop here.
    const exclude = layerFrom(readInfoExclude(dir, probe.git), '', strip);
    git = [gitLayer, exclude].filter((layer): layer is Layer => layer !== undefined);
  } else if (gitLayer) {
    git = [gitLayer, ...inherited.git];
  }
  return dot === inherited.dot && git === inherited.git ? inherited : { dot, git };
}

/** lstat that answers undefined for a path that is gone or cannot be looked at. */
export function lstatQuiet(file: string): Stats | undefined {
  try {
    return lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

export function probeDir(dir: string): Probe {
  const kind = (name: string): 'dir' | 'file' | undefined => {
    const stat = lstatQuiet(path.join(dir, name));
    return stat?.isDirectory() ? 'dir' : stat?.isFile() ? 'file' : undefined;
  };
  return {
    gitignore: kind('.gitignore') === 'file',
    dotIgnore: kind('.ignore') === 'file',
    git: kind('.git'),
  };
}

export function probeEntries(entries: readonly Dirent[]): Probe {
  let gitignore = false;
  let dotIgnore = false;
  let git: Probe['git'];
  for (const entry of entries) {
    // Symlinked ignore files are skipped, as git itself does.
    if (entry.name === '.gitignore') gitignore = entry.isFile();
    else if (entry.name === '.ignore') dotIgnore = entry.isFile();
    else if (entry.name === '.git') git = entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : undefined;
  }
  return { gitignore, dotIgnore, git };
}

/**
 * Ignore files of the repository above the root (a root is often a subfolder of a repo). The root itself and
 * the folders leading to it are re-included: the user asked for that folder explicitly.
 */
export function layersAbove(rootPath: string): Layers {
  const empty: Layers = { dot: [], git: [] };
  if (probeDir(rootPath).git) return empty;
  const chain: { dir: string; probe: Probe }[] = [];
  for (let dir = path.dirname(rootPath); ; dir = path.dirname(dir)) {
    const probe = probeDir(dir);
    chain.push({ dir, probe });
    if (probe.git) break;
    if (path.dirname(dir) === dir) return empty;
  }
  const dot: Layer[] = [];
  const git: Layer[] = [];
  for (const { dir, probe } of chain) {
    const rootLocal = path.relative(dir, rootPath).split(path.sep).join('/');
    const place = (layer: Layer | undefined, into: Layer[]): void => {
      if (!layer) return;
      const segments = rootLocal.split('/');
      for (let i = 1; i <= segments.length; i++) layer = reinclude(layer, segments.slice(0, i).join('/'));
      into.push(layer);
    };
    const prefix = `${rootLocal}/`;
    if (probe.dotIgnore) place(layerFrom(readText(path.join(dir, '.ignore')), prefix, 0), dot);
    if (probe.gitignore) place(layerFrom(readText(path.join(dir, '.gitignore')), prefix, 0), git);
    if (probe.git) place(layerFrom(readInfoExclude(dir, probe.git), prefix, 0), git);
  }
  return { dot, git };
}
