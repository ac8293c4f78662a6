import { existsSync, readdirSync, realpathSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE_NAME } from '../core/config.js';
import { DEFAULT_EXCLUDES } from '../index/crawl.js';
import { writeIdeConfigs } from './ide-config.js';
import { UsageError } from './operation-commands.js';

/** Folders whose sub-folders are one service or package each. */
const CONTAINERS = ['apps', 'crates', 'packages', 'services', 'src'];
/** Folders that are one root each when present. */
const SINGLE_ROOTS = ['api-gateway', 'docs', 'gateway', 'proto', 'proto-registry', 'protos'];
const MANIFESTS = new Set([
  'Cargo.toml',
  'build.gradle',
  'build.gradle.kts',
  'go.mod',
  'package.json',
  'pom.xml',
  'pyproject.toml',
]);
/** Plain folder names the crawler always leaves out: never a root, and no proof that a folder holds code. */
const SKIPPED = new Set(DEFAULT_EXCLUDES.filter((p) => !p.includes('*')).map((p) => p.replace(/\/$/, '')));
/** Enough entries to prove a folder holds a file without walking a huge tree. */
const PROBE_LIMIT = 2_000;

export interface RootChoice {
  /** As written in `roots`: a folder, or `<container>/*`. */
  readonly pattern: string;
  /** Why, as a comment in the file. */
  readonly reason: string;
}

export interface Layout {
  readonly roots: readonly RootChoice[];
  readonly docs: readonly string[];
}

const isManifest = (name: string): boolean => MANIFESTS.has(name) || name.endsWith('.csproj');

function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch {
    return [];
  }
}

/** Sub-folders a root glob would match: every non-hidden folder (symlinks are not folders here). */
const subFolders = (dir: string): string[] =>
  entriesOf(dir)
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name);

const hasManifest = (dir: string): boolean => entriesOf(dir).some((e) => e.isFile() && isManifest(e.name));

/** Whether `dir` holds at least one regular file (matching `accept`), outside hidden and always-excluded folders. */
function holdsFile(dir: string, accept: (name: string) => boolean = () => true): boolean {
  // Breadth first, so a shallow file is found before any deep walk; bounded, so a huge tree costs little.
  const queue = [dir];
  let seen = 0;
  while (queue.length > 0 && seen < PROBE_LIMIT) {
    const current = queue.shift() as string;
    for (const entry of entriesOf(current)) {
      seen++;
      if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
      if (entry.isFile() && accept(entry.name)) return true;
      if (entry.isDirectory()) queue.push(path.join(current, entry.name));
    }
  }
  return false;
}

/**
 * The roots a workspace's layout suggests. Everything returned exists; a container becomes a glob only when
 * every folder the glob would match qualifies, so the glob never adds an empty or generated root.
 */
export function detectLayout(workspaceDir: string): Layout {
  const top = entriesOf(workspaceDir);
  const topDirs = top
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED.has(e.name))
    .map((e) => e.name);
  const topManifest = top.some((e) => e.isFile() && isManifest(e.name));
  const roots: RootChoice[] = [];
  const docs = topDirs.includes('docs') && holdsFile(path.join(workspaceDir, 'docs')) ? ['docs'] : [];
  let nestedManifest = false;

  for (const container of CONTAINERS.filter((name) => topDirs.includes(name))) {
    const dir = path.join(workspaceDir, container);
    // Code directly in `src/` would be missed by `src/*`: then `src` is the root.
    if (container === 'src' && entriesOf(dir).some((e) => e.isFile() && !e.name.startsWith('.'))) {
      roots.push({ pattern: 'src', reason: 'src/ holds code itself' });
      continue;
    }
    const all = subFolders(dir);
    const qualifying = all.filter((name) => !SKIPPED.has(name) && holdsFile(path.join(dir, name)));
    if (qualifying.some((name) => hasManifest(path.join(dir, name)))) nestedManifest = true;
    if (qualifying.length === 0) continue;
    if (qualifying.length === all.length) {
      roots.push({
        pattern: `${container}/*`,
        reason: `every sub-folder of ${container}/ (${qualifying.length})`,
      });
    } else {
      for (const name of qualifying)
        roots.push({ pattern: `${container}/${name}`, reason: `a sub-folder of ${container}/ with files` });
    }
  }
  for (const name of topDirs) {
    if (CONTAINERS.includes(name)) continue;
    const dir = path.join(workspaceDir, name);
    const manifest = hasManifest(dir);
    if (manifest) nestedManifest = true;
    let reason: string | undefined;
    if (SINGLE_ROOTS.includes(name))
      reason =
        name === 'docs' ? 'documentation' : name.includes('gateway') ? 'API gateway' : 'protobuf contracts';
    else if (/^(deploy|k8s)/i.test(name)) reason = 'deployment manifests';
    // Contracts often live in a folder with any name (`pb/`, `api/`, `schemas/`): the .proto files tell.
    else if (holdsFile(dir, (file) => file.endsWith('.proto'))) reason = 'protobuf contracts (.proto files)';
    else if (manifest) reason = 'a project manifest';
    if (reason && holdsFile(dir)) roots.push({ pattern: name, reason });
  }

  // One project at the top (its manifest is the only one): the whole folder is the root.
  if ((topManifest && !nestedManifest) || roots.length === 0) {
    return {
      roots: [
        {
          pattern: '.',
          reason: topManifest
            ? 'one project: a manifest at the top only'
            : 'no known layout: the whole folder',
        },
      ],
      docs,
    };
  }
  roots.sort((a, b) => (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0));
  return { roots, docs };
}

const tomlString = (value: string): string => JSON.stringify(value);

/** The commented `meshlens.toml` for a layout; the same layout always gives the same bytes. */
export function renderInitConfig(layout: Layout, workspaceName: string): string {
  const width = Math.max(...layout.roots.map((r) => tomlString(r.pattern).length + 1));
  const lines = [
    '# meshlens configuration, proposed by `meshlens init` from the folder layout. Edit freely;',
    '# `meshlens init --auto --force` regenerates it. Paths are relative to this file, and a glob',
    '# in `roots` expands to one root per matching folder. Unknown keys are refused.',
    '',
    '[workspace]',
    `# name = ${tomlString(workspaceName)}  # defaults to the folder name`,
    '# Each root is indexed on its own; a file belongs to its most specific root.',
    'roots = [',
    ...layout.roots.map((r) => `  ${`${tomlString(r.pattern)},`.padEnd(width)}  # ${r.reason}`),
    ']',
    '# Extra gitignore-style patterns to leave out (.gitignore files are always honoured).',
    '# exclude = ["**/generated/**"]',
    '',
    '[docs]',
    '# Markdown, ADRs and RFCs that `docs search` answers from; empty means every Markdown file in the roots.',
    `paths = [${layout.docs.map(tomlString).join(', ')}]`,
    '',
  ];
  return `${lines.join('\n')}`;
}

export interface InitCommandOptions {
  /** `--workspace`, else the current folder. */
  readonly workspaceDir: string;
  readonly auto: boolean;
  readonly force: boolean;
  readonly writeIdeConfig: boolean;
  /** The running CLI script, registered in the IDE configs. */
  readonly cliPath: string;
  readonly write: (text: string) => void;
  readonly warn: (text: string) => void;
}

/**
 * `meshlens init`: proposes a config from the layout (printed, or written with `--auto`), never replacing an
 * existing one without `--force`, and optionally registers the server with MCP clients.
 */
export function initCommand(options: InitCommandOptions): void {
  if (!existsSync(options.workspaceDir) || !statSync(options.workspaceDir).isDirectory()) {
    throw new UsageError(`workspace folder not found: ${options.workspaceDir}`);
  }
  const workspaceDir = realpathSync(options.workspaceDir);
  const target = path.join(workspaceDir, CONFIG_FILE_NAME);
  const text = renderInitConfig(detectLayout(workspaceDir), path.basename(workspaceDir));
  // Without --auto stdout carries only the proposal (so it can be redirected); notes go to stderr.
  const note = options.auto ? options.write : options.warn;
  if (!options.auto) {
    options.write(text);
    if (existsSync(target)) note(`${target} exists; the proposal above was not written.`);
  } else if (existsSync(target) && !options.force) {
    note(`${target} already exists; kept it (use --force to regenerate it).`);
  } else {
    writeFileSync(target, text, { flag: options.force ? 'w' : 'wx' });
    note(`wrote ${target}`);
  }
  if (options.writeIdeConfig) {
    const serverArgs = [realpathSync(options.cliPath), 'serve', '--workspace', workspaceDir];
    for (const result of writeIdeConfigs(workspaceDir, serverArgs)) {
      if (result.status === 'invalid') options.warn(`${result.file}: ${result.detail}; left untouched`);
      else note(`${result.file}: ${result.status}`);
    }
  }
}
