import { builtinModules } from 'node:module';
import path from 'node:path';
import type { Confidence, ImportFact, LanguageId } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import type { GraphBuilder } from './node-table.js';

/**
 * Import resolution: each file's imports as written → the workspace files (or Go package folders) they
 * refer to, as `imports` edges between `module` nodes. Facts stay per file; everything that needs more
 * than one file (which files exist, which root publishes a package, tsconfig aliases) is joined here, at
 * reconcile time. Files are indexed by path once and every answer is memoised per (specifier, importer
 * root) — or per importer folder for a relative specifier — so the work is linear in the number of imports.
 */

/** `compilerOptions.paths` and `baseUrl` of the tsconfig a root uses, with folders made absolute. */
export interface TsPathsConfig {
  /** What `paths` targets are relative to: `baseUrl` when set, else the folder of the tsconfig declaring `paths`. */
  readonly pathsBase: string;
  /** `baseUrl`, when set: bare specifiers are also looked up under it. */
  readonly baseUrl?: string;
  /** In declaration order; a pattern holds at most one `*`. */
  readonly paths: readonly { readonly pattern: string; readonly targets: readonly string[] }[];
}

/** What a root's `package.json` says about how others import it. */
export interface PackageInfo {
  readonly name: string;
  /** Entry points as written (`./dist/index.js`), relative to the root folder, in priority order. */
  readonly entries: readonly string[];
  /** `exports` subpaths (`./testing`, `./*`) → targets as written. */
  readonly subpaths: readonly { readonly subpath: string; readonly targets: readonly string[] }[];
}

/** Per-root settings read from its manifests by the engine (absolute folders, `/`-separated). */
export interface RootImportSettings {
  readonly root: string;
  readonly dir: string;
  readonly tsconfig?: TsPathsConfig;
  readonly packageJson?: PackageInfo;
  /** From the nearest `go.mod`: its `module` path and folder. */
  readonly goModule?: { readonly path: string; readonly dir: string };
}

/** Where an import points: a file, a Go package folder, or a workspace package whose entry file is unknown. */
type TargetRef =
  | { readonly kind: 'file'; readonly file: IndexedFile }
  | { readonly kind: 'folder'; readonly root: string; readonly dir: string }
  | { readonly kind: 'package'; readonly root: string };

interface Resolution {
  readonly targets: readonly TargetRef[];
  readonly confidence: Confidence;
}

const NONE: Resolution = { targets: [], confidence: 'exact' };

const TS_FAMILY: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx', 'javascript']);
const JVM_FAMILY: ReadonlySet<LanguageId> = new Set(['java', 'kotlin']);
const C_FAMILY: ReadonlySet<LanguageId> = new Set(['c', 'cpp']);

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

const slash = (p: string): string => p.replace(/\\/g, '/');
const dirOf = (p: string): string => p.slice(0, Math.max(p.lastIndexOf('/'), 0));
const join = (...parts: string[]): string => path.posix.join(...parts);
const isRelative = (s: string): boolean =>
  s === '.' || s === '..' || s.startsWith('./') || s.startsWith('../');
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The folder of a file's root: its absolute path minus the root-relative part. */
const rootDirOf = (file: IndexedFile): string => {
  const abs = slash(file.absolutePath);
  return abs.slice(0, abs.length - file.path.length - 1);
};

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

export interface ImportEdgeInput {
  readonly files: readonly IndexedFile[];
  readonly settings: readonly RootImportSettings[];
}

/**
 * Adds one `imports` edge per (importing file → imported file or Go package folder), from the importing
 * file's `module` node, with the first import statement that resolves there as evidence.
 */
export function addImportEdges(builder: GraphBuilder, input: ImportEdgeInput): void {
  const resolver = new ImportResolver(input);
  const moduleNode = (file: IndexedFile) =>
    builder.node({ kind: 'module', name: file.path, root: file.root, file: file.path, line: 1 });
  const targetNode = (target: TargetRef): string => {
    switch (target.kind) {
      case 'file':
        return moduleNode(target.file);
      case 'folder':
        return builder.node({
          kind: 'module',
          name: target.dir === '' ? './' : `${target.dir}/`,
          root: target.root,
          file: undefined,
          line: undefined,
        });
      case 'package':
        return builder.node({
          kind: 'service',
          name: target.root,
          root: target.root,
          file: undefined,
          line: undefined,
        });
    }
  };
  const targetKey = (target: TargetRef): string =>
    target.kind === 'file'
      ? `f\u0000${target.file.root}\u0000${target.file.path}`
      : target.kind === 'folder'
        ? `d\u0000${target.root}\u0000${target.dir}`
        : `p\u0000${target.root}`;

  for (const file of input.files) {
    if (file.facts.imports.length === 0) continue;
    const chosen = new Map<string, { target: TargetRef; fact: ImportFact; confidence: Confidence }>();
    for (const fact of file.facts.imports) {
      const { targets, confidence: level } = resolver.resolve(file, fact);
      for (const target of targets) {
        if (target.kind === 'file' && target.file === file) continue;
        const key = targetKey(target);
        const existing = chosen.get(key);
        if (
          !existing ||
          rank(level) < rank(existing.confidence) ||
          (rank(level) === rank(existing.confidence) && fact.line < existing.fact.line)
        ) {
          chosen.set(key, { target, fact, confidence: level });
        }
      }
    }
    if (chosen.size === 0) continue;
    const from = moduleNode(file);
    for (const key of [...chosen.keys()].sort()) {
      const { target, fact, confidence } = chosen.get(key) as {
        target: TargetRef;
        fact: ImportFact;
        confidence: Confidence;
      };
      builder.edge(from, targetNode(target), 'imports', confidence, {
        root: file.root,
        file: file.path,
        line: fact.line,
        via: fact.source,
      });
    }
  }
}

const rank = (c: Confidence): number => (c === 'exact' ? 0 : c === 'heuristic' ? 1 : 2);

class ImportResolver {
  /** Indexed files by absolute, `/`-separated path. */
  private readonly byPath = new Map<string, IndexedFile>();
  private readonly settingsByRoot = new Map<string, RootImportSettings>();
  /** `package.json` name → the roots publishing it, in root order. */
  private readonly packages = new Map<string, RootImportSettings[]>();
  /** Go modules, longest path first (a nested module wins over its parent). */
  private readonly goModules: { readonly path: string; readonly dir: string }[] = [];
  /** Folders holding non-test `.go` files → their root and root-relative folder. */
  private readonly goFolders = new Map<string, { root: string; dir: string }>();
  /** Folders holding `__init__.py`. */
  private readonly pythonPackages = new Set<string>();
  /** Per root: a top-level Python name → the folders (absolute) it sits in, like `sys.path` entries. */
  private pythonTops: Map<string, Map<string, string[]>> | undefined;
  /** `package.Type` (and `package.function` for Kotlin) → the JVM files declaring it at top level. */
  private jvmTypes: Map<string, IndexedFile[]> | undefined;
  private readonly memo = new Map<string, Resolution>();
  private readonly files: readonly IndexedFile[];

  constructor(input: ImportEdgeInput) {
    this.files = input.files;
    for (const file of input.files) {
      const abs = slash(file.absolutePath);
      this.byPath.set(abs, file);
      if (file.language === 'go' && !file.path.endsWith('_test.go'))
        this.goFolders.set(dirOf(abs), { root: file.root, dir: dirOf(file.path) });
      if (file.language === 'python' && /(?:^|\/)__init__\.pyi?$/.test(file.path))
        this.pythonPackages.add(dirOf(abs));
    }
    const seenModules = new Set<string>();
    for (const settings of input.settings) {
      this.settingsByRoot.set(settings.root, settings);
      if (settings.packageJson) {
        const list =
          this.packages.get(settings.packageJson.name) ??
          this.packages.set(settings.packageJson.name, []).get(settings.packageJson.name);
        list?.push(settings);
      }
      const go = settings.goModule;
      if (go && !seenModules.has(`${go.path}\u0000${go.dir}`)) {
        seenModules.add(`${go.path}\u0000${go.dir}`);
        this.goModules.push(go);
      }
    }
    this.goModules.sort((a, b) => b.path.length - a.path.length || cmp(a.path, b.path) || cmp(a.dir, b.dir));
  }

  resolve(file: IndexedFile, fact: ImportFact): Resolution {
    const language = file.language;
    if (language === undefined) return NONE;
    if (fact.resolved !== undefined) {
      const target = this.byPath.get(join(rootDirOf(file), fact.resolved));
      return target ? { targets: [{ kind: 'file', file: target }], confidence: 'exact' } : NONE;
    }
    const source = fact.source;
    let family: string;
    let scope: string;
    if (TS_FAMILY.has(language)) {
      family = 'ts';
      scope = isRelative(source) ? dirOf(slash(file.absolutePath)) : file.root;
    } else if (language === 'python') {
      family = 'py';
      scope = source.startsWith('.') ? dirOf(slash(file.absolutePath)) : file.root;
    } else if (C_FAMILY.has(language)) {
      family = 'c';
      scope = dirOf(slash(file.absolutePath));
    } else if (language === 'go') {
      family = 'go';
      scope = file.root;
    } else if (JVM_FAMILY.has(language)) {
      family = 'jvm';
      scope = file.root;
    } else {
      return NONE;
    }
    const names = family === 'py' || family === 'jvm' ? (fact.names ?? []).join(',') : '';
    const key = `${family}\u0000${scope}\u0000${source}\u0000${names}`;
    const cached = this.memo.get(key);
    if (cached) return cached;
    const result = this.compute(family, file, fact);
    this.memo.set(key, result);
    return result;
  }

  private compute(family: string, file: IndexedFile, fact: ImportFact): Resolution {
    switch (family) {
      case 'ts':
        return this.typescript(file, fact.source);
      case 'py':
        return this.python(file, fact);
      case 'c':
        return this.include(file, fact.source);
      case 'go':
        return this.go(fact.source);
      case 'jvm':
        return this.jvm(file, fact);
      default:
        return NONE;
    }
  }

  private one(file: IndexedFile | undefined, confidence: Confidence): Resolution {
    return file ? { targets: [{ kind: 'file', file }], confidence } : NONE;
  }

  /** A TS/JS module path (absolute, without or with an extension) → the indexed source file. */
  private tsFile(base: string, folderOnly = false): IndexedFile | undefined {
    const isTs = (f: IndexedFile | undefined) =>
      f && f.language !== undefined && TS_FAMILY.has(f.language) ? f : undefined;
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

  private typescript(file: IndexedFile, specifier: string): Resolution {
    if (isRelative(specifier)) {
      // `.`, `..` and `./dir/` name a folder: only its index, never a sibling `dir.ts`.
      const folderOnly = specifier === '.' || specifier === '..' || specifier.endsWith('/');
      return this.one(
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
        if (found) return this.one(found, 'exact');
      }
      if (tsconfig.baseUrl !== undefined) {
        const found = this.tsFile(join(tsconfig.baseUrl, specifier));
        if (found) return this.one(found, 'exact');
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

  /** A Python module path (absolute, dotted part already turned into folders) → its file. */
  private pyModule(base: string): IndexedFile | undefined {
    for (const candidate of [`${base}.py`, `${base}.pyi`, `${base}/__init__.py`, `${base}/__init__.pyi`]) {
      const found = this.byPath.get(candidate);
      if (found?.language === 'python') return found;
    }
    return undefined;
  }

  /**
   * The module an import names, or the submodules a `from` import names when they are modules
   * (`from . import models`): each becomes a target; names that are not modules point at the module itself.
   */
  private pyTargets(moduleBase: string, names: readonly string[]): IndexedFile[] {
    const out: IndexedFile[] = [];
    let needsModule = names.length === 0;
    for (const name of names) {
      const sub = name === '*' ? undefined : this.pyModule(`${moduleBase}/${name}`);
      if (sub) out.push(sub);
      else needsModule = true;
    }
    if (needsModule) {
      const module = this.pyModule(moduleBase);
      if (module) out.push(module);
    }
    return out;
  }

  private python(file: IndexedFile, fact: ImportFact): Resolution {
    const source = fact.source;
    const names = fact.names ?? [];
    const dotted = (rest: string) => (rest === '' ? [] : rest.split('.'));
    if (source.startsWith('.')) {
      const dots = /^\.+/.exec(source)?.[0].length ?? 1;
      let base = dirOf(slash(file.absolutePath));
      for (let i = 1; i < dots; i++) base = dirOf(base);
      const parts = dotted(source.slice(dots));
      const targets = this.pyTargets(parts.length === 0 ? base : join(base, ...parts), names);
      return { targets: targets.map((f) => ({ kind: 'file', file: f })), confidence: 'exact' };
    }
    const parts = dotted(source);
    const first = parts[0];
    if (first === undefined) return NONE;
    const folders = this.pythonTopsOf(file.root).get(first) ?? [];
    const found = new Map<string, IndexedFile>();
    let readings = 0;
    for (const folder of folders) {
      const targets = this.pyTargets(join(folder, ...parts), names);
      if (targets.length > 0) readings++;
      for (const target of targets) found.set(`${target.root}\u0000${target.path}`, target);
    }
    const targets = [...found.keys()]
      .sort()
      .map((k): TargetRef => ({ kind: 'file', file: found.get(k) as IndexedFile }));
    // Several import roots giving a reading: the one Python would pick depends on `sys.path`.
    return { targets, confidence: readings > 1 ? 'ambiguous' : 'heuristic' };
  }

  /**
   * Where absolute imports start in each root, like `sys.path`: the root folder, its `src/` folder, and the
   * folder above each outermost package (a folder with `__init__.py` whose parent has none).
   */
  private pythonTopsOf(root: string): Map<string, string[]> {
    if (!this.pythonTops) {
      const tops = new Map<string, Map<string, Set<string>>>();
      const add = (rootName: string, folder: string, name: string) => {
        const byName = tops.get(rootName) ?? tops.set(rootName, new Map()).get(rootName);
        const set = byName?.get(name) ?? byName?.set(name, new Set()).get(name);
        set?.add(folder);
      };
      for (const file of this.files) {
        if (file.language !== 'python') continue;
        const rootDir = rootDirOf(file);
        for (const base of ['', 'src/']) {
          if (!file.path.startsWith(base) || file.path.length === base.length) continue;
          const rest = file.path.slice(base.length);
          const slashAt = rest.indexOf('/');
          add(
            file.root,
            base === '' ? rootDir : join(rootDir, 'src'),
            slashAt < 0 ? rest.replace(/\.pyi?$/, '') : rest.slice(0, slashAt),
          );
        }
        let dir = dirOf(slash(file.absolutePath));
        let outermost: string | undefined;
        while (dir.length > rootDir.length && this.pythonPackages.has(dir)) {
          outermost = dir;
          dir = dirOf(dir);
        }
        if (outermost !== undefined)
          add(file.root, dirOf(outermost), outermost.slice(outermost.lastIndexOf('/') + 1));
      }
      this.pythonTops = new Map(
        [...tops].map(([rootName, byName]) => [
          rootName,
          new Map([...byName].map(([name, set]) => [name, [...set].sort()])),
        ]),
      );
    }
    return this.pythonTops.get(root) ?? new Map();
  }

  /** `#include "x.h"`: next to the including file, then from the root folder. */
  private include(file: IndexedFile, source: string): Resolution {
    if (source === '' || source.startsWith('/')) return NONE;
    const isC = (f: IndexedFile | undefined) =>
      f?.language !== undefined && C_FAMILY.has(f.language) ? f : undefined;
    const found =
      isC(this.byPath.get(join(dirOf(slash(file.absolutePath)), source))) ??
      isC(this.byPath.get(join(rootDirOf(file), source)));
    return this.one(found, 'exact');
  }

  /** A Go import under a workspace module's path → the package folder. */
  private go(source: string): Resolution {
    for (const module of this.goModules) {
      if (source !== module.path && !source.startsWith(`${module.path}/`)) continue;
      const folder = this.goFolders.get(
        source === module.path ? module.dir : join(module.dir, source.slice(module.path.length + 1)),
      );
      if (folder)
        return { targets: [{ kind: 'folder', root: folder.root, dir: folder.dir }], confidence: 'exact' };
    }
    return NONE;
  }

  private jvmIndex(): Map<string, IndexedFile[]> {
    if (!this.jvmTypes) {
      const index = new Map<string, IndexedFile[]>();
      for (const file of this.files) {
        if (file.language === undefined || !JVM_FAMILY.has(file.language)) continue;
        const pkg = file.facts.package;
        const prefix = pkg ? `${pkg}.` : '';
        for (const symbol of file.facts.symbols) {
          if (symbol.parent !== undefined || symbol.kind === 'heading' || symbol.kind === 'property')
            continue;
          const key = prefix + symbol.name;
          const list = index.get(key) ?? index.set(key, []).get(key);
          if (list && !list.includes(file)) list.push(file);
        }
      }
      this.jvmTypes = index;
    }
    return this.jvmTypes;
  }

  /**
   * `import a.b.C` (or `a.b.C.member`, `a.b.Outer.Inner`) → the file declaring package `a.b` and a top-level
   * `C`. A package wildcard (`a.b.*`) names no single file. Several declaring files: the importer's root wins.
   */
  private jvm(file: IndexedFile, fact: ImportFact): Resolution {
    const index = this.jvmIndex();
    const wildcard = fact.names?.length === 1 && fact.names[0] === '*';
    let name = fact.source;
    let candidates = index.get(name);
    // Members and nested types: strip trailing segments while what remains still ends in a type name.
    for (let i = 0; !candidates && !wildcard && i < 3; i++) {
      const dot = name.lastIndexOf('.');
      if (dot < 0) break;
      name = name.slice(0, dot);
      if (!/^[A-Z]/.test(name.slice(name.lastIndexOf('.') + 1))) break;
      candidates = index.get(name);
    }
    if (!candidates) return NONE;
    const local = candidates.filter((f) => f.root === file.root);
    const chosen = (local.length > 0 ? local : candidates)
      .slice()
      .sort((a, b) => cmp(a.root, b.root) || cmp(a.path, b.path));
    return {
      targets: chosen.map((f) => ({ kind: 'file', file: f })),
      confidence: chosen.length > 1 ? 'ambiguous' : 'heuristic',
    };
  }
}
