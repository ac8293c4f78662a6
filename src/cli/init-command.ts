import { existsSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE_NAME } from '../core/config.js';
import { buildServiceModel } from '../index/services/model.js';
import { writeIdeConfigs, type IdeConfigOutcome } from './ide-config.js';
import type { IdeClient } from './ide/clients.js';
import { UsageError } from './operation-commands.js';
import { proposeRoots, type RootChoice } from './root-proposal.js';

export type { RootChoice } from './root-proposal.js';

/**
 * `meshlens init`: proposes roots from the service model (what the workspace's manifests, Dockerfiles and
 * deploy files declare; see `src/index/services/`), with a comment per root saying why.
 */
export interface Layout {
  readonly roots: readonly RootChoice[];
  readonly docs: readonly string[];
}

/** The roots the workspace's declarations suggest; everything returned exists, and the same tree gives the same layout. */
export function detectLayout(workspaceDir: string): Layout {
  const result = buildServiceModel(workspaceDir);
  const docs = result.model.entries.filter((e) => e.kind === 'docs').map((e) => e.folder);
  return { roots: proposeRoots(workspaceDir, result), docs };
}

const tomlString = (value: string): string => JSON.stringify(value);

/** The commented `meshlens.toml` for a layout; the same layout always gives the same bytes. */
export function renderInitConfig(layout: Layout, workspaceName: string): string {
  const width = Math.max(...layout.roots.map((r) => tomlString(r.pattern).length + 1));
  const lines = [
    '# meshlens configuration, proposed by `meshlens init` from what the workspace declares (build',
    '# manifests, Dockerfiles, compose and Kubernetes files). Edit freely;',
    '# `meshlens init --auto --force` regenerates it. Paths are relative to this file, and a glob',
    '# in `roots` expands to one root per matching folder. Unknown keys are refused.',
    '',
    '[workspace]',
    `# name = ${tomlString(workspaceName)}  # defaults to the folder name`,
    '# Each root is indexed on its own; a file belongs to its most specific root.',
    'roots = [',
    ...layout.roots.flatMap((r) => [
      ...(r.details ?? []).map((detail) => `  # ${detail}`),
      `  ${`${tomlString(r.pattern)},`.padEnd(width)}  # ${r.reason}`,
    ]),
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
  /** The clients named with `--ide` (which implies `--write-ide-config`); undefined for the default ones. */
  readonly ideClients?: readonly IdeClient[];
  /** The running CLI script, registered in the IDE configs. */
  readonly cliPath: string;
  /** Where PATH and the user's folders are read from. */
  readonly env?: NodeJS.ProcessEnv;
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
  if (options.writeIdeConfig || options.ideClients !== undefined) {
    const outcome = writeIdeConfigs({
      workspaceDir,
      cliPath: options.cliPath,
      env: options.env ?? process.env,
      ...(options.ideClients ? { clients: options.ideClients } : {}),
    });
    reportIdeConfigs(outcome, note, options.warn);
  }
}

/** One line per file; problems and files outside the workspace are said so. */
function reportIdeConfigs(
  outcome: IdeConfigOutcome,
  note: (text: string) => void,
  warn: (text: string) => void,
) {
  for (const result of outcome.results) {
    if (result.status === 'invalid') warn(`${result.file}: ${result.detail}; left untouched`);
    else if (result.status === 'kept') warn(`${result.file}: ${result.detail}`);
    else if (result.status === 'skipped') warn(`${result.client.label}: ${result.detail}`);
    else
      note(
        `${result.file}: ${result.status}${result.outside ? ` (${result.client.label}, outside the workspace)` : ''}`,
      );
  }
  const { launcher } = outcome;
  const registered = outcome.results.some((r) => ['created', 'updated', 'unchanged'].includes(r.status));
  if (launcher.kind === 'absolute' && registered)
    note(
      `the entries start meshlens by its absolute path ${launcher.script} (meshlens is neither installed in the workspace nor the \`meshlens\` on PATH), so they work on this machine only`,
    );
}
