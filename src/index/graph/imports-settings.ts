/** What the engine reads from each root's manifests (tsconfig, package.json, go.mod) to resolve imports. */

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
