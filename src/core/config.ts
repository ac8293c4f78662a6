import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { configSchema, type MeshConfig } from './config-schema.js';
import {
  canonicalLocation,
  WorkspaceBoundary,
  type OutsidePath,
  type OutsidePolicy,
} from './workspace-boundary.js';
import { nearest } from './suggest.js';
import { CONFIG_FILE_NAME, ConfigError, configFileOf, type ConfigFileOptions } from './config-file.js';
import { resolveRoots, type ResolvedRoot, type RootPatterns } from './root-patterns.js';

export { expandRootGlob, resolveRoots, rootPatternBase } from './root-patterns.js';
export { CONFIG_FILE_NAME, ConfigError, discoverConfigFile } from './config-file.js';
export type { ResolvedRoot, RootPatterns } from './root-patterns.js';

export interface LoadedConfig {
  /** The config file, when there is one. */
  readonly file: string | undefined;
  /** The folder relative paths resolve against: the config file's folder, else the workspace folder. */
  readonly baseDir: string;
  readonly workspaceName: string;
  readonly roots: readonly ResolvedRoot[];
  readonly config: MeshConfig;
  /** Problems that do not stop start-up (a glob matching nothing, a missing root). */
  readonly warnings: readonly string[];
  /** The folders path settings must stay in (see workspace-boundary.ts). */
  readonly boundary: WorkspaceBoundary;
  /** Settings that lead outside the boundary: used under `allow`, left out under `leave-out`. */
  readonly outside: readonly OutsidePath[];
  readonly outsidePolicy: OutsidePolicy;
  /**
   * What `roots` were expanded from: the index expands them again (`resolveRoots`) when folders come or go,
   * so that a folder created later that matches a pattern becomes a root.
   */
  readonly rootPatterns: RootPatterns;
}

export interface LoadConfigOptions extends ConfigFileOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Settings that lead outside the workspace: refused (default), allowed, or left out (`doctor`). */
  readonly outsideWorkspace?: OutsidePolicy;
}

/**
 * `${WORKSPACE_ROOT}` and `${WORKSPACE_ROOT:-default}` in a path value: the variable's value when it is set,
 * else the default (shell style), else the config file's folder. `baseDir` anchors relative values.
 */
export function substituteWorkspaceRoot(
  value: string,
  workspaceRoot: string | undefined,
  baseDir: string,
): string {
  return value.replace(
    /\$\{(WORKSPACE_ROOT|workspace_root)(?::-([^}]*))?\}/g,
    (_match, _name, fallback?: string) =>
      path.resolve(baseDir, workspaceRoot ?? (fallback === undefined || fallback === '' ? '.' : fallback)),
  );
}

/** A substituted path setting, written back relative to the config folder so it compares with root names. */
function substitutePathSetting(value: string, workspaceRoot: string | undefined, baseDir: string): string {
  if (!value.includes('${')) return value;
  const absolute = substituteWorkspaceRoot(value, workspaceRoot, baseDir);
  const relative = path.relative(baseDir, absolute).split(path.sep).join('/');
  return relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
}

/** Drops `[[contracts.patterns]]` entries whose regex cannot compile (or lacks the named group), with a warning. */
function usablePatterns(
  patterns: MeshConfig['contracts']['patterns'],
  warnings: string[],
): MeshConfig['contracts']['patterns'] {
  return patterns.filter((pattern) => {
    let groups: number;
    try {
      // An empty alternative always matches, so exec reveals how many capture groups the regex has.
      groups = (new RegExp(`${pattern.regex}|`).exec('')?.length ?? 1) - 1;
    } catch (error) {
      warnings.push(
        `[[contracts.patterns]] \`${pattern.name}\`: invalid regex (${(error as Error).message}); pattern skipped`,
      );
      return false;
    }
    const wanted = Math.max(pattern.target_group, pattern.consumer_group ?? 0);
    if (wanted > groups) {
      warnings.push(
        `[[contracts.patterns]] \`${pattern.name}\`: the regex has ${groups} capture group(s) but group ${wanted} is used; pattern skipped`,
      );
      return false;
    }
    return true;
  });
}

function shapeAt(keys: readonly (string | number)[]): string[] {
  // Walk the schema along the issue path to list the keys that would have been valid there.
  let schema: z.ZodType = configSchema;
  for (const key of keys) {
    const unwrapped = unwrap(schema);
    if (unwrapped instanceof z.ZodObject)
      schema = (unwrapped.shape as Record<string, z.ZodType>)[String(key)] ?? schema;
    else if (unwrapped instanceof z.ZodArray) schema = unwrapped.element as z.ZodType;
  }
  const target = unwrap(schema);
  return target instanceof z.ZodObject ? Object.keys(target.shape) : [];
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (let i = 0; i < 8; i++) {
    const def = (current as unknown as { _zod: { def: { innerType?: z.ZodType; type: string } } })._zod.def;
    if (def.innerType && ['default', 'prefault', 'optional', 'nullable'].includes(def.type))
      current = def.innerType;
    else break;
  }
  return current;
}

/** A TOML spelling of where a key sits: `[workspace]`, `[[contracts.patterns]] #2`. */
function tableName(keys: readonly PropertyKey[]): string {
  const index = keys.findIndex((k) => typeof k === 'number');
  if (index < 0) return `[${keys.map(String).join('.')}]`;
  const head = `[[${keys.slice(0, index).map(String).join('.')}]] #${Number(keys[index]) + 1}`;
  return index === keys.length - 1
    ? head
    : `${head} ${keys
        .slice(index + 1)
        .map(String)
        .join('.')}`;
}

function describeIssues(error: z.ZodError, file: string): string {
  const lines = error.issues.map((issue) => {
    const where = issue.path.length ? tableName(issue.path) : '(top level)';
    if (issue.code === 'unrecognized_keys') {
      const valid = shapeAt(issue.path as (string | number)[]);
      return issue.keys
        .map((key) => {
          const guess = nearest(key, valid);
          const at = issue.path.length ? tableName(issue.path) : 'the top level';
          return `unknown key \`${key}\` in ${at}${guess ? ` — did you mean \`${guess}\`?` : ''} (valid: ${valid.join(', ')})`;
        })
        .join('\n');
    }
    // A record key that fails its own check (a tenant name) says why in the issues nested under it.
    if (issue.code === 'invalid_key') return `${where}: ${issue.issues.map((i) => i.message).join('; ')}`;
    return `${where}: ${issue.message}`;
  });
  return `Invalid config ${file}:\n${lines.map((l) => `  - ${l}`).join('\n')}`;
}

/** The config file that applies: `--config`, else the workspace folder's own, else the nearest one above. */
/** The file's TOML as data (an empty table without a file). */
function readRawConfig(file: string | undefined): unknown {
  if (!file) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read config ${file}: ${(error as Error).message}`);
  }
  try {
    return parseToml(text);
  } catch (error) {
    // smol-toml reports where: name the file and line the way editors and terminals link them.
    const { line, column } = error as { line?: number; column?: number };
    const where = line !== undefined ? `${file}:${line}${column !== undefined ? `:${column}` : ''}` : file;
    throw new ConfigError(`Invalid TOML in ${where}: ${(error as Error).message}`);
  }
}

interface PlacedPaths {
  /** The roots, canonical, sorted, each once (those outside the boundary only under `allow`). */
  readonly roots: readonly ResolvedRoot[];
  readonly rootPatterns: RootPatterns;
  /** `[policy.skills]` without the entries left out. */
  readonly skills: Record<string, string>;
  readonly boundary: WorkspaceBoundary;
  readonly outside: readonly OutsidePath[];
}

/**
 * The roots and skill files, resolved (globs expanded, symlinks followed) and held to the workspace boundary:
 * one outside it is refused, used or left out as `policy` says.
 */
function placePaths(
  config: MeshConfig,
  where: {
    baseDir: string;
    workspaceDir: string;
    workspaceRoot: string | undefined;
    file: string | undefined;
  },
  policy: OutsidePolicy,
  warnings: string[],
): PlacedPaths {
  const { baseDir, workspaceRoot } = where;
  const boundary = new WorkspaceBoundary([
    baseDir,
    where.workspaceDir,
    ...(workspaceRoot ? [path.resolve(baseDir, workspaceRoot)] : []),
  ]);
  const outside: OutsidePath[] = [];
  /** Whether a setting's canonical path may be used; one outside the workspace is noted either way. */
  const usable = (setting: string, value: string, canonical: string): boolean => {
    if (boundary.contains(canonical)) return true;
    outside.push({ setting, value, resolved: canonical });
    return policy === 'allow';
  };
  const rootPatterns: RootPatterns = {
    baseDir,
    patterns: config.workspace.roots.map((p) => substituteWorkspaceRoot(p, workspaceRoot, baseDir)),
    boundary,
    allowOutside: policy === 'allow',
  };
  const resolved = resolveRoots(rootPatterns);
  for (const index of resolved.unmatched)
    warnings.push(`root \`${config.workspace.roots[index]}\` matches no folder`);
  for (const { index, resolved: real } of resolved.outside)
    outside.push({
      setting: '[workspace] roots',
      value: config.workspace.roots[index] ?? '',
      resolved: real,
    });
  const skills = Object.fromEntries(
    Object.entries(config.policy.skills).filter(([key, value]) => {
      const skillFile = path.resolve(baseDir, substituteWorkspaceRoot(value, workspaceRoot, baseDir));
      return usable(`[policy.skills] ${key}`, value, canonicalLocation(skillFile));
    }),
  );
  if (outside.length > 0 && policy === 'refuse') {
    throw new ConfigError(boundary.refusal(where.file ?? CONFIG_FILE_NAME, outside));
  }
  return { roots: resolved.roots, rootPatterns, skills, boundary, outside };
}

/** Reads, validates and resolves the configuration; throws ConfigError with a message to show the user. */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const env = options.env ?? process.env;
  const workspaceDir = path.resolve(options.cwd, options.workspaceDir ?? '.');
  if (
    options.workspaceDir !== undefined &&
    !statSync(workspaceDir, { throwIfNoEntry: false })?.isDirectory()
  ) {
    throw new ConfigError(
      `Workspace folder not found: ${workspaceDir} (--workspace must name an existing folder).`,
    );
  }
  const file = configFileOf(options, workspaceDir);
  const parsed = configSchema.safeParse(readRawConfig(file));
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, file ?? CONFIG_FILE_NAME));
  const baseDir = file ? path.dirname(file) : workspaceDir;
  const workspaceRoot = env.WORKSPACE_ROOT || undefined;
  const warnings: string[] = [];
  const config: MeshConfig = {
    ...parsed.data,
    docs: {
      ...parsed.data.docs,
      paths: parsed.data.docs.paths.map((p) => substitutePathSetting(p, workspaceRoot, baseDir)),
    },
    contracts: {
      ...parsed.data.contracts,
      proto_dirs: parsed.data.contracts.proto_dirs.map((p) =>
        substitutePathSetting(p, workspaceRoot, baseDir),
      ),
      patterns: usablePatterns(parsed.data.contracts.patterns, warnings),
    },
  };
  const outsidePolicy = options.outsideWorkspace ?? 'refuse';
  const placed = placePaths(config, { baseDir, workspaceDir, workspaceRoot, file }, outsidePolicy, warnings);
  const baseReal = existsSync(baseDir) ? realpathSync(baseDir) : baseDir;
  const roots = placed.roots;
  const workspaceName = config.workspace.name ?? path.basename(baseReal);
  return {
    file,
    baseDir: baseReal,
    workspaceName,
    roots,
    config: { ...config, policy: { ...config.policy, skills: placed.skills } },
    warnings,
    boundary: placed.boundary,
    outside: placed.outside,
    outsidePolicy,
    rootPatterns: placed.rootPatterns,
  };
}
