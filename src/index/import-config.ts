import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PackageInfo, RootImportSettings, TsPathsConfig } from './graph/imports-settings.js';

/** Manifests larger than this are not read (the same cap as service names). */
const CONFIG_READ_CAP = 64 * 1024;

const slash = (p: string): string => p.split(path.sep).join('/');
/** Whether a folder above the root may still be searched: inside the workspace folder. */
const within = (dir: string, workspaceDir: string): boolean =>
  dir === workspaceDir || dir.startsWith(`${workspaceDir}${path.sep}`);

function readSmall(file: string): string | undefined {
  const stats = statSync(file, { throwIfNoEntry: false });
  if (!stats?.isFile() || stats.size > CONFIG_READ_CAP) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** JSON with `//` and `/* *\/` comments and trailing commas (tsconfig's dialect) → plain JSON text. */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      out += ' ';
    } else if (c === ',') {
      // A comma followed only by blanks (and comments) before `}` or `]` is a trailing comma.
      let j = i + 1;
      for (;;) {
        while (j < text.length && /\s/.test(text[j] as string)) j++;
        if (text[j] === '/' && text[j + 1] === '/') {
          while (j < text.length && text[j] !== '\n') j++;
        } else if (text[j] === '/' && text[j + 1] === '*') {
          const end = text.indexOf('*/', j + 2);
          j = end < 0 ? text.length : end + 2;
        } else break;
      }
      if (text[j] !== '}' && text[j] !== ']') out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function readJson(file: string, comments: boolean): Record<string, unknown> | undefined {
  const text = readSmall(file);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(comments ? stripJsonComments(text) : text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

interface RawTsOptions {
  baseUrl?: string;
  paths?: { pattern: string; targets: string[] }[];
  pathsDir?: string;
}

/** `baseUrl` and `paths` of one tsconfig file, folders made absolute against the file's folder. */
function tsOptionsOf(json: Record<string, unknown>, dir: string): RawTsOptions {
  const options = record(json.compilerOptions) ?? {};
  const out: RawTsOptions = {};
  if (typeof options.baseUrl === 'string') out.baseUrl = path.resolve(dir, options.baseUrl);
  const paths = record(options.paths);
  if (paths) {
    out.paths = Object.entries(paths).map(([pattern, targets]) => ({
      pattern,
      targets: Array.isArray(targets) ? targets.filter((t): t is string => typeof t === 'string') : [],
    }));
    out.pathsDir = dir;
  }
  return out;
}

/**
 * The tsconfig a root uses: `tsconfig.json` (else `tsconfig.base.json`) in the root folder or the nearest
 * folder above it inside the workspace, with one level of relative `extends` followed.
 */
function readTsconfig(rootDir: string, workspaceDir: string): TsPathsConfig | undefined {
  for (let dir = rootDir; ; dir = path.dirname(dir)) {
    for (const name of ['tsconfig.json', 'tsconfig.base.json']) {
      const file = path.join(dir, name);
      const json = readJson(file, true);
      if (!json) continue;
      const own = tsOptionsOf(json, dir);
      const parents = (Array.isArray(json.extends) ? json.extends : [json.extends]).filter(
        (e): e is string => typeof e === 'string' && (e.startsWith('./') || e.startsWith('../')),
      );
      let inherited: RawTsOptions = {};
      for (const parent of parents) {
        const parentFile = path.resolve(dir, parent.endsWith('.json') ? parent : `${parent}.json`);
        const parentJson = readJson(parentFile, true);
        if (parentJson) inherited = { ...inherited, ...tsOptionsOf(parentJson, path.dirname(parentFile)) };
      }
      const baseUrl = own.baseUrl ?? inherited.baseUrl;
      const paths = own.paths ?? inherited.paths;
      const pathsDir = own.paths ? own.pathsDir : inherited.pathsDir;
      if (baseUrl === undefined && paths === undefined) return undefined;
      return {
        pathsBase: slash(baseUrl ?? pathsDir ?? dir),
        ...(baseUrl !== undefined ? { baseUrl: slash(baseUrl) } : {}),
        paths: paths ?? [],
      };
    }
    const parent = path.dirname(dir);
    if (parent === dir || !within(parent, workspaceDir)) return undefined;
  }
}

/** Every string an `exports` condition object leads to, in its own key order. */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(exportTargets);
  const object = record(value);
  return object ? Object.values(object).flatMap(exportTargets) : [];
}

function readPackageJson(rootDir: string): PackageInfo | undefined {
  const json = readJson(path.join(rootDir, 'package.json'), false);
  if (!json || typeof json.name !== 'string' || json.name === '') return undefined;
  const entries: string[] = [];
  const subpaths: { subpath: string; targets: string[] }[] = [];
  const exportsField = json.exports;
  const exportsMap = record(exportsField);
  if (exportsMap && Object.keys(exportsMap).some((k) => k.startsWith('.'))) {
    for (const [key, value] of Object.entries(exportsMap)) {
      if (key === '.') entries.push(...exportTargets(value));
      else if (key.startsWith('./')) subpaths.push({ subpath: key, targets: exportTargets(value) });
    }
  } else if (exportsField !== undefined) entries.push(...exportTargets(exportsField));
  for (const field of ['types', 'typings', 'module', 'main']) {
    const value = json[field];
    if (typeof value === 'string') entries.push(value);
  }
  return { name: json.name, entries: [...new Set(entries)], subpaths };
}

/** The `module` of the `go.mod` in the root folder or the nearest folder above it inside the workspace. */
function readGoModule(rootDir: string, workspaceDir: string): { path: string; dir: string } | undefined {
  for (let dir = rootDir; ; dir = path.dirname(dir)) {
    const text = readSmall(path.join(dir, 'go.mod'));
    const module = text ? /^module\s+("?)([^\s"]+)\1/m.exec(text)?.[2] : undefined;
    if (module) return { path: module, dir: slash(dir) };
    const parent = path.dirname(dir);
    if (parent === dir || !within(parent, workspaceDir)) return undefined;
  }
}

/**
 * What import resolution needs from each root's manifests: tsconfig `paths`/`baseUrl`, the `package.json`
 * name and entry points, the `go.mod` module path. A few small reads per root, done on every index run
 * (like service names) so that an incremental reload after a manifest edit equals a full run.
 */
export function readImportSettings(
  roots: readonly { name: string; path: string }[],
  workspaceDir: string,
): RootImportSettings[] {
  return roots.map((root): RootImportSettings => {
    const tsconfig = readTsconfig(root.path, workspaceDir);
    const packageJson = readPackageJson(root.path);
    const goModule = readGoModule(root.path, workspaceDir);
    return {
      root: root.name,
      dir: slash(root.path),
      ...(tsconfig ? { tsconfig } : {}),
      ...(packageJson ? { packageJson } : {}),
      ...(goModule ? { goModule } : {}),
    };
  });
}
