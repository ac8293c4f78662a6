/**
 * TypeScript and JavaScript imports: relative specifiers, tsconfig `paths` and `baseUrl`, and workspace packages
 * by their `package.json` name, `exports` and entry points, with build output mapped back to the sources.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import type { IndexedFile } from '../../snapshot.js';
import { dirOf, isRelative, join, slash } from '../shared/import-paths.js';
import { fileResolution, NONE, type Resolution, type TargetRef } from '../shared/import-resolution.js';
import type { PackageInfo, RootImportSettings } from '../../graph/imports-settings.js';

/** Extensions tried after a specifier without one, in TypeScript's order. */
const TS_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];
/** ESM specifiers name the emitted file: `./x.js` is `./x.ts` in the sources. */
const EMITTED_TO_SOURCE: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};
/** Build output folders a manifest's entry points into; the sources usually sit under `src/`. */
const OUTPUT_DIRS = /^(?:\.\/)?(?:dist|lib|build|out)\//;

const NODE_BUILTINS: ReadonlySet<string> = new Set(builtinModules.filter((m) => !m.startsWith('_')));
const isNodeBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') ||
  NODE_BUILTINS.has(specifier) ||
  NODE_BUILTINS.has(specifier.split('/')[0] ?? '');

/** The package a bare specifier names: `@scope/pkg/sub` → `@scope/pkg` and `./sub`. */
function splitPackage(specifier: string): { name: string; subpath: string } | undefined {
  const parts = specifier.split('/');
  const count = specifier.startsWith('@') ? 2 : 1;
  if (parts.length < count || parts.slice(0, count).some((p) => p === '')) return undefined;
  const rest = parts.slice(count).join('/');
  return { name: parts.slice(0, count).join('/'), subpath: rest === '' ? '.' : `./${rest}` };
}

/** `pattern` with one `*` against `value`: the text the `*` stands for, or undefined. */
function matchStar(pattern: string, value: string): string | undefined {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === value ? '' : undefined;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  if (value.length < prefix.length + suffix.length || !value.startsWith(prefix) || !value.endsWith(suffix))
    return undefined;
  return value.slice(prefix.length, value.length - suffix.length);
}

/** TypeScript's pick among `paths` patterns: an exact pattern, else the longest prefix before the `*`. */
function bestPattern<T extends { pattern: string }>(
  entries: readonly T[],
  specifier: string,
): { entry: T; star: string } | undefined {
  let best: { entry: T; star: string; prefix: number } | undefined;
  for (const entry of entries) {
    const star = matchStar(entry.pattern, specifier);
    if (star === undefined) continue;
    const prefix = entry.pattern.includes('*') ? entry.pattern.indexOf('*') : Number.MAX_SAFE_INTEGER;
    if (!best || prefix > best.prefix) best = { entry, star, prefix };
  }
  return best;
}

export class TypeScriptImports {
  private readonly settingsByRoot = new Map<string, RootImportSettings>();
  /** `package.json` name → the roots publishing it, in root order. */
  private readonly packages = new Map<string, RootImportSettings[]>();

  constructor(
    /** Indexed files by absolute, `/`-separated path. */
    private readonly byPath: ReadonlyMap<string, IndexedFile>,
    rootSettings: readonly RootImportSettings[],
    /** TypeScript, TSX or JavaScript. */
    private readonly isScript: (file: IndexedFile) => boolean,
  ) {
    for (const settings of rootSettings) {
      this.settingsByRoot.set(settings.root, settings);
      if (settings.packageJson) {
        const list =
          this.packages.get(settings.packageJson.name) ??
          this.packages.set(settings.packageJson.name, []).get(settings.packageJson.name);
        list?.push(settings);
      }
    }
  }

  resolve(file: IndexedFile, specifier: string): Resolution {
    if (isRelative(specifier)) {
      // `.`, `..` and `./dir/` name a folder: only its index, never a sibling `dir.ts`.
      const folderOnly = specifier === '.' || specifier === '..' || specifier.endsWith('/');
      return fileResolution(
        this.tsFile(join(dirOf(slash(file.absolutePath)), specifier).replace(/\/$/, ''), folderOnly),
        'exact',
      );
    }
    if (specifier.startsWith('/')) return NONE;
    const own = this.settingsByRoot.get(file.root);
    const tsconfig = own?.tsconfig;
    if (tsconfig) {
      const alias = bestPattern(tsconfig.paths, specifier);
      for (const target of alias?.entry.targets ?? []) {
        const found = this.tsFile(join(tsconfig.pathsBase, target.replace('*', alias?.star ?? '')));
        if (found) return fileResolution(found, 'exact');
      }
      if (tsconfig.baseUrl !== undefined) {
        const found = this.tsFile(join(tsconfig.baseUrl, specifier));
        if (found) return fileResolution(found, 'exact');
      }
    }
    // A built-in never reaches into another root, whatever a package there is called.
    if (isNodeBuiltin(specifier)) return NONE;
    const pkg = splitPackage(specifier);
    if (!pkg) return NONE;
    const publishers = this.packages.get(pkg.name) ?? [];
    const local = publishers.filter((p) => p.root === file.root);
    const chosen = local.length > 0 ? local : publishers;
    const targets = chosen.map((p) => this.packageTarget(p, pkg.subpath));
    return { targets, confidence: targets.length > 1 ? 'ambiguous' : 'exact' };
  }

  /** A TS/JS module path (absolute, without or with an extension) → the indexed source file. */
  private tsFile(base: string, folderOnly = false): IndexedFile | undefined {
    const isTs = (f: IndexedFile | undefined) => (f && this.isScript(f) ? f : undefined);
    if (folderOnly) {
      for (const candidate of TS_EXTENSIONS) {
        const found = isTs(this.byPath.get(`${base}/index${candidate}`));
        if (found) return found;
      }
      return undefined;
    }
    const ext = path.posix.extname(base);
    const sources = EMITTED_TO_SOURCE[ext];
    if (sources) {
      const stem = base.slice(0, -ext.length);
      for (const candidate of sources) {
        const found = isTs(this.byPath.get(stem + candidate));
        if (found) return found;
      }
    }
    const exact = isTs(this.byPath.get(base));
    if (exact) return exact;
    // `dist/index.d.ts` in a manifest stands for `index.ts` once mapped back to the sources.
    const declaration = /\.d\.[mc]?ts$/.exec(base);
    const stem = declaration ? base.slice(0, declaration.index) : base;
    for (const candidate of TS_EXTENSIONS) {
      const found = isTs(this.byPath.get(stem + candidate));
      if (found) return found;
    }
    for (const candidate of TS_EXTENSIONS) {
      const found = isTs(this.byPath.get(`${stem}/index${candidate}`));
      if (found) return found;
    }
    return undefined;
  }

  /** A workspace package's module for a subpath: `exports`, then the folder layout, then its entry point. */
  private packageTarget(settings: RootImportSettings, subpath: string): TargetRef {
    const info = settings.packageJson as PackageInfo;
    const viaManifest = (target: string): IndexedFile | undefined => {
      const found = this.tsFile(join(settings.dir, target));
      if (found || !OUTPUT_DIRS.test(target)) return found;
      return this.tsFile(join(settings.dir, target.replace(OUTPUT_DIRS, 'src/')));
    };
    if (subpath !== '.') {
      const exported = bestPattern(
        info.subpaths.map((s) => ({ pattern: s.subpath, targets: s.targets })),
        subpath,
      );
      for (const target of exported?.entry.targets ?? []) {
        const found = viaManifest(target.replace('*', exported?.star ?? ''));
        if (found) return { kind: 'file', file: found };
      }
      const found =
        this.tsFile(join(settings.dir, subpath)) ?? this.tsFile(join(settings.dir, 'src', subpath));
      if (found) return { kind: 'file', file: found };
    }
    for (const entry of info.entries) {
      const found = viaManifest(entry);
      if (found) return { kind: 'file', file: found };
    }
    const fallback = this.tsFile(join(settings.dir, 'src/index')) ?? this.tsFile(join(settings.dir, 'index'));
    return fallback ? { kind: 'file', file: fallback } : { kind: 'package', root: settings.root };
  }
}
