/**
 * `meshlens doctor` checks that read the configuration, the roots and the machine; none of them writes.
 * Each returns one or more `DoctorCheck`s so the command can print them in a fixed order.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { LoadedConfig, ResolvedRoot } from '../core/config.js';
import { operationKey } from '../core/operation.js';
import { anchoredSubject, policyAnchors } from '../trust/policy-anchors.js';
import { SkillHints } from '../trust/skill-hints.js';
import { StopRules } from '../trust/stop-rules.js';
import { LANGUAGES, languageSpec } from '../index/languages/registry.js';
import type { Snapshot } from '../index/snapshot.js';
import { OPERATIONS } from '../ops/catalog.js';

export type CheckStatus = 'ok' | 'warn' | 'error';

export interface DoctorCheck {
  readonly name: string;
  readonly status: CheckStatus;
  readonly message: string;
  /** Set by `--fix`: true when this run repaired the problem, false when it was left alone on purpose. */
  readonly fixed?: boolean;
}

export const check = (name: string, status: CheckStatus, message: string, fixed?: boolean): DoctorCheck => ({
  name,
  status,
  message,
  ...(fixed === undefined ? {} : { fixed }),
});

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const isInside = (child: string, parent: string): boolean =>
  child.startsWith(parent.endsWith(path.sep) ? parent : `${parent}${path.sep}`);

export function rootChecks(loaded: LoadedConfig): DoctorCheck[] {
  const roots = loaded.roots.filter((root) => existsSync(root.path));
  if (roots.length === 0) {
    return [
      check(
        'roots',
        'error',
        `no root exists (configured: ${loaded.config.workspace.roots.join(', ')}); nothing would be indexed`,
      ),
    ];
  }
  const checks = [check('roots', 'ok', `${roots.length} root(s): ${roots.map((r) => r.name).join(', ')}`)];
  const nested: DoctorCheck[] = [];
  for (const outer of roots) {
    for (const inner of roots) {
      if (inner !== outer && isInside(inner.path, outer.path)) {
        nested.push(
          check(
            'root overlap',
            'warn',
            `\`${inner.name}\` is nested in \`${outer.name}\`: its files belong to \`${inner.name}\` (the most specific root) and are left out of \`${outer.name}\``,
          ),
        );
      }
    }
  }
  return [
    ...checks,
    ...(nested.length > 0 ? nested : [check('root overlap', 'ok', 'no root is nested in another')]),
  ];
}

/** `git@host:org/x.git`, `https://user@host/org/x/` and `ssh://host/org/x` all become `host/org/x`. */
export function normalizeRemote(url: string): string {
  let value = url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  const scp = /^[^/@:]+@([^/:]+):(.*)$/.exec(value);
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/:]+)(?::\d+)?\/(.*)$/i.exec(value);
  const parts = scp ?? scheme;
  if (parts) value = `${(parts[1] ?? '').toLowerCase()}/${parts[2] ?? ''}`;
  return value;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The `.git/config` of a checkout: `.git` is a folder in a clone and a `gitdir:` file in a submodule or worktree. */
function gitConfigOf(dir: string): string | undefined {
  const dotGit = path.join(dir, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return readText(path.join(dotGit, 'config'));
  } catch {
    return undefined;
  }
  const pointer = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? '')?.[1]?.trim();
  if (!pointer) return undefined;
  const gitDir = path.resolve(dir, pointer);
  const common = readText(path.join(gitDir, 'commondir'))?.trim();
  return (
    readText(path.join(gitDir, 'config')) ??
    (common ? readText(path.join(path.resolve(gitDir, common), 'config')) : undefined)
  );
}

/** `key = value` pairs per `[section "name"]` of a git-config-format file. */
function gitSections(text: string): { section: string; values: Map<string, string[]> }[] {
  const sections: { section: string; values: Map<string, string[]> }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) sections.push({ section: header[1] ?? '', values: new Map() });
    const pair = /^([A-Za-z][\w-]*)\s*=\s*(.*)$/.exec(line);
    const current = sections[sections.length - 1];
    if (pair && current) {
      const key = (pair[1] ?? '').toLowerCase();
      current.values.set(key, [...(current.values.get(key) ?? []), (pair[2] ?? '').trim()]);
    }
  }
  return sections;
}

function isCheckedOut(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/** The same remote checked out under several roots: every copy is indexed, answers repeat, the index swells. */
export function duplicatedSubmoduleChecks(roots: readonly ResolvedRoot[]): DoctorCheck[] {
  const byUrl = new Map<string, Map<string, string>>();
  const add = (url: string, absolute: string, label: string) => {
    const key = normalizeRemote(url);
    if (!key) return;
    const copies = byUrl.get(key) ?? new Map<string, string>();
    copies.set(absolute, label);
    byUrl.set(key, copies);
  };
  for (const root of roots) {
    for (const { section, values } of gitSections(gitConfigOf(root.path) ?? '')) {
      if (section.startsWith('remote '))
        for (const url of values.get('url') ?? []) add(url, root.path, root.name);
    }
    for (const { section, values } of gitSections(readText(path.join(root.path, '.gitmodules')) ?? '')) {
      const where = values.get('path')?.[0];
      const url = values.get('url')?.[0];
      if (!section.startsWith('submodule') || !where || !url) continue;
      const absolute = path.resolve(root.path, where);
      if (isCheckedOut(absolute)) add(url, absolute, `${root.name}/${where}`);
    }
  }
  const checks: DoctorCheck[] = [];
  for (const [url, copies] of [...byUrl].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (copies.size < 2) continue;
    const labels = [...copies.values()].sort();
    checks.push(
      check(
        'duplicated submodule',
        'warn',
        `${url} is checked out ${copies.size} times (${labels.join(', ')}); every copy is indexed — exclude all but one with [workspace] exclude`,
      ),
    );
  }
  return checks.length > 0
    ? checks
    : [check('duplicated submodule', 'ok', 'no git remote is checked out under more than one root')];
}

export async function grammarCheck(): Promise<DoctorCheck> {
  const { loadLanguage } = await import('../index/parse/parser.js');
  const byGrammar = new Map<string, string>();
  for (const spec of LANGUAGES)
    if (spec.grammar && !byGrammar.has(spec.grammar.file)) byGrammar.set(spec.grammar.file, spec.id);
  const failures: string[] = [];
  for (const [grammar, language] of [...byGrammar].sort(([a], [b]) => (a < b ? -1 : 1))) {
    try {
      await loadLanguage(language);
    } catch (error) {
      failures.push(`${grammar}: ${errorText(error)}`);
    }
  }
  if (failures.length > 0) {
    return check(
      'grammars',
      'error',
      `${failures.length} of ${byGrammar.size} grammars failed to load: ${failures.join('; ')}`,
    );
  }
  return check('grammars', 'ok', `all ${byGrammar.size} tree-sitter grammars load`);
}

export function gitCheck(): DoctorCheck {
  const result = spawnSync('git', ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (result.status === 0) return check('git', 'ok', result.stdout.trim());
  const why = result.error
    ? errorText(result.error)
    : result.stderr.trim() || `exit status ${String(result.status)}`;
  return check(
    'git',
    'warn',
    `git is not usable (${why}); reload holds during git operations and git-based checks are unavailable`,
  );
}

/** Below this, watching a few large repositories exhausts the per-user inotify budget. */
export const MIN_INOTIFY_WATCHES = 65_536;

export function inotifyCheck(file = '/proc/sys/fs/inotify/max_user_watches'): DoctorCheck | undefined {
  if (process.platform !== 'linux') return undefined;
  const value = Number.parseInt(readText(file)?.trim() ?? '', 10);
  if (!Number.isFinite(value))
    return check('file watch limit', 'warn', `cannot read ${file}; the watcher may miss changes`);
  if (value < MIN_INOTIFY_WATCHES) {
    return check(
      'file watch limit',
      'warn',
      `fs.inotify.max_user_watches is ${value} (below ${MIN_INOTIFY_WATCHES}); raise it with \`sudo sysctl fs.inotify.max_user_watches=524288\` (persist it in /etc/sysctl.d/)`,
    );
  }
  return check('file watch limit', 'ok', `fs.inotify.max_user_watches is ${value}`);
}

function globRegex(absolutePattern: string): RegExp {
  let source = '';
  for (let i = 0; i < absolutePattern.length; i++) {
    const char = absolutePattern[i] as string;
    if (char === '*' && absolutePattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A pattern naming a folder matches every file below it.
  return new RegExp(`^${source}(?:/.*)?$`);
}

/**
 * Settings that match nothing: a root pattern without a folder (from the loader), a docs path without a
 * Markdown file, a proto dir without a `.proto`, a stop rule or skill key that no path or operation can meet,
 * a skill file that does not exist. `snapshot` is the index doctor just built; without it only what needs no
 * index is checked.
 */
export function deadConfigChecks(
  loaded: LoadedConfig,
  snapshot: Snapshot | undefined,
  env: Readonly<Record<string, string | undefined>>,
): DoctorCheck[] {
  const anchors = policyAnchors(loaded);
  const warnings = [
    ...loaded.warnings,
    ...(snapshot
      ? [
          ...deadDocsPaths(loaded, snapshot),
          ...deadProtoDirs(loaded, snapshot),
          ...deadStopRules(loaded, snapshot, anchors),
          ...deadSkillKeys(loaded, snapshot, anchors),
        ]
      : []),
  ];
  const checks =
    warnings.length > 0
      ? warnings.map((warning) => check('dead config', 'warn', warning))
      : [
          check(
            'dead config',
            'ok',
            snapshot
              ? 'every root, docs path, proto dir, stop rule and skill matches something'
              : 'every root pattern matches a folder (the other settings need the index, which failed)',
          ),
        ];
  return [...checks, ...skillFileChecks(loaded, anchors, env)];
}

function deadDocsPaths(loaded: LoadedConfig, snapshot: Snapshot): string[] {
  const docs = loaded.config.docs;
  if (!docs.enabled) return [];
  const markdown = snapshot.files
    .filter((f) => languageSpec(f.language)?.documentation === true)
    .map((f) => f.absolutePath);
  return docs.paths
    .filter((entry) => {
      const matcher = globRegex(path.resolve(loaded.baseDir, entry));
      return !markdown.some((file) => matcher.test(file));
    })
    .map((entry) => `[docs] paths \`${entry}\` matched 0 indexed Markdown files — likely dead config`);
}

function deadProtoDirs(loaded: LoadedConfig, snapshot: Snapshot): string[] {
  const protos = snapshot.files.filter((f) => languageSpec(f.language)?.grpcSchema === true);
  return loaded.config.contracts.proto_dirs
    .filter((dir) => {
      // The same test the reconciler applies (root name or root-relative path prefix).
      const clean = dir.replace(/^\.\//, '').replace(/\/$/, '');
      return !protos.some(
        (f) =>
          clean === '.' ||
          f.root === clean ||
          f.root.startsWith(`${clean}/`) ||
          f.path.startsWith(`${clean}/`),
      );
    })
    .map((dir) => `[contracts] proto_dirs \`${dir}\` matched 0 indexed .proto files — likely dead config`);
}

/** The roots and every indexed file: what a stop rule or a skill key can meet. */
const indexedPaths = (loaded: LoadedConfig, snapshot: Snapshot): string[] => [
  ...loaded.roots.map((r) => r.path),
  ...snapshot.files.map((f) => f.absolutePath),
];

function deadStopRules(loaded: LoadedConfig, snapshot: Snapshot, anchors: readonly string[]): string[] {
  const paths = indexedPaths(loaded, snapshot);
  return Object.entries(loaded.config.policy.stop_rules)
    .filter(([key, message]) => {
      const rule = new StopRules({ rules: { [key]: message }, anchors });
      return !paths.some((p) => rule.match(p));
    })
    .map(([key]) => `[policy.stop_rules] \`${key}\` matches no indexed path — likely dead config`);
}

function deadSkillKeys(loaded: LoadedConfig, snapshot: Snapshot, anchors: readonly string[]): string[] {
  const names = new Set(OPERATIONS.flatMap((op) => [op.flatName, operationKey(op)]));
  const lowered = indexedPaths(loaded, snapshot).map((p) => anchoredSubject(p, anchors).toLowerCase());
  return Object.keys(loaded.config.policy.skills)
    .filter((key) => !names.has(key) && !(key !== '' && lowered.some((p) => p.includes(key.toLowerCase()))))
    .map(
      (key) =>
        `[policy.skills] \`${key}\` matches no operation name and no indexed path — likely dead config`,
    );
}

function skillFileChecks(
  loaded: LoadedConfig,
  anchors: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): DoctorCheck[] {
  const skills = loaded.config.policy.skills;
  if (Object.keys(skills).length === 0) return [];
  const hints = new SkillHints({
    skills,
    baseDir: loaded.baseDir,
    workspaceRoot: env.WORKSPACE_ROOT || undefined,
    anchors,
  });
  const missing = [...hints.entries]
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .filter((entry) => !isFile(entry.file))
    .map((entry) =>
      check(
        'skills',
        'warn',
        `\`${entry.key}\`: skill file \`${entry.display}\` not found; no hint is shown for it`,
      ),
    );
  return missing.length > 0
    ? missing
    : [check('skills', 'ok', `${hints.entries.length} skill file(s) found`)];
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
