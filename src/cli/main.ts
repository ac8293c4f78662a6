import path from 'node:path';
import { Command, Option } from 'commander';
import { ConfigError, loadConfig, type LoadedConfig } from '../core/config.js';
import { ALLOW_OUTSIDE_FLAG, type OutsidePolicy } from '../core/workspace-boundary.js';
import { createLogger, type Logger } from '../core/logger.js';
import { OPERATIONS } from '../ops/catalog.js';
import { Registry } from '../core/registry.js';
import { processIo, type CliIo } from './cli-io.js';
import { commandWordOf, globalOptionsOf, NO_DAEMON_FLAG, type GlobalOptions } from './global-options.js';
import { CommandDeclined, localRuntime, runOperation, type OperationRuntime } from './operation-runtime.js';
import { addOperationCommands, UsageError } from './operation-commands.js';
import { VERSION } from './version.js';
import { addKeysCommand } from './keys-program.js';
import { addDaemonCommand } from './daemon-program.js';
import { addAuditCommand, addStatsCommand } from './audit-program.js';
import { StoreCommandError } from './cli-store.js';
import { clientsNamed, IDE_CLIENT_NAMES } from './ide/clients.js';
import type { GraphFormat } from './graph-command.js';
import { print as write } from './print.js';

/** Exit statuses: 0 answered, 1 the tool refused or failed, 2 the command line or config was wrong. */
export const EXIT = { ok: 0, toolError: 1, usage: 2 } as const;

/** The configuration; one that points outside the workspace is refused unless the flag allows it. */
export function openConfig(
  options: GlobalOptions,
  outsideWorkspace: OutsidePolicy = options.allowOutsideWorkspace ? 'allow' : 'refuse',
  cwd = process.cwd(),
): LoadedConfig {
  return loadConfig({
    cwd,
    ...(options.config ? { configPath: options.config } : {}),
    ...(options.workspace ? { workspaceDir: options.workspace } : {}),
    outsideWorkspace,
  });
}

/** What a command's definition needs: the raw arguments, the logger, the global options and where it writes. */
interface CommandContext {
  readonly argv: readonly string[];
  readonly logger: Logger;
  readonly globals: GlobalOptions;
  readonly io: CliIo;
  /** What answers operation commands: this process by default, a workspace daemon for the calls it runs. */
  readonly runtime: OperationRuntime;
  /** `[server] store` from the config, for commands that act on the store when no flag or variable names it. */
  readonly configuredStore: () => string | undefined;
}

/** The lifecycle commands, in the order help lists them. */
const LIFECYCLE_COMMANDS: readonly ((program: Command, context: CommandContext) => void)[] = [
  addServeCommand,
  addInitCommand,
  addIndexCommand,
  addGraphCommand,
  addDoctorCommand,
  addStatsCommand,
  addAuditCommand,
  addCheckCommand,
  addKeysCommand,
  addDaemonCommand,
];

/** Where a command line's output goes and what answers its operation commands: this process by default. */
export interface ProgramOptions {
  readonly io?: CliIo;
  readonly runtime?: OperationRuntime;
}

export function buildProgram(
  argv: readonly string[],
  logger: Logger,
  { io = processIo(), runtime }: ProgramOptions = {},
): Command {
  const program = new Command('meshlens')
    .description(
      'Structural answers about a polyglot multi-service workspace, over MCP and the command line.',
    )
    .version(VERSION)
    .addOption(new Option('--workspace <dir>', 'the workspace folder (default: the current folder)'))
    .addOption(
      new Option(
        '--config <file>',
        'the meshlens.toml to use (default: found from the current folder upward)',
      ),
    )
    .addOption(
      new Option(
        ALLOW_OUTSIDE_FLAG,
        'let meshlens.toml name roots and skill files outside the workspace (refused by default)',
      ),
    )
    .addOption(
      new Option(
        NO_DAEMON_FLAG,
        'answer in this process instead of through the workspace daemon that `serve` and earlier commands started (also MESHLENS_NO_DAEMON=1)',
      ),
    )
    // Before any command is added: subcommands take the output settings of their parent when created.
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      // Not a terminal: commander's own default width.
      getOutHelpWidth: () => io.columns.stdout ?? 80,
      getErrHelpWidth: () => io.columns.stderr ?? 80,
    })
    .showHelpAfterError()
    .exitOverride();
  const globals = globalOptionsOf(argv);
  const context: CommandContext = {
    argv,
    logger,
    globals,
    io,
    runtime: runtime ?? localRuntime(logger, () => openConfig(globals, undefined, io.cwd)),
    configuredStore: () => openConfig(globals, 'leave-out', io.cwd).config.server.store,
  };
  for (const addCommand of LIFECYCLE_COMMANDS) addCommand(program, context);

  // A fixed command (serve above all: its boot time is what an MCP client waits for) does not need the
  // generated operation commands, whose JSON-schema walk over every operation costs ~10 ms.
  const fixed = new Set(program.commands.map((command) => command.name()));
  const word = commandWordOf(argv);
  // `graph` is both a fixed command and a domain (`graph visualize`): only a word that is no domain skips them.
  if (word !== undefined && fixed.has(word) && !OPERATIONS.some((op) => op.domain === word)) return program;
  addCatalogueCommands(program, context);
  return program;
}

/**
 * Operation subcommands, generated from the full catalogue; a domain switched off in the config is refused
 * when the command runs (the registry built there does not hold it).
 */
function addCatalogueCommands(program: Command, { argv, io, runtime }: CommandContext): void {
  const catalogue = new Registry({ operations: OPERATIONS, services: undefined });
  addOperationCommands(
    program,
    catalogue,
    (op, rawArgs, json) => runOperation(runtime, io, op, rawArgs, json),
    argv,
    io,
  );
}

function addServeCommand(program: Command, { argv, logger, globals }: CommandContext): void {
  program
    .command('serve')
    .description(
      'Run the MCP server over stdio (stdout carries only JSON-RPC; logs go to stderr), or over Streamable HTTP with --http.',
    )
    .addOption(
      new Option('--surface <kind>', 'one tool per domain, or one per operation')
        .choices(['domain', 'flat'])
        .default('domain'),
    )
    .option(
      '--text-only',
      'send only the Markdown text: no outputSchema, no structuredContent (for clients that show the JSON to the model)',
      false,
    )
    .addOption(new Option('--structured-output', 'the default; kept for older configs').hideHelp())
    .option('--no-watch', 'do not watch the roots or the config file for changes')
    .option(
      '--no-daemon',
      'serve in this process instead of attaching to the workspace daemon that other stdio clients share (also MESHLENS_NO_DAEMON=1)',
    )
    .option(
      '--http',
      'serve MCP over Streamable HTTP at /mcp instead of stdio, until SIGINT or SIGTERM; the bound address is printed on stderr',
      false,
    )
    .option(
      '--listen <addr>',
      'with --http: host:port to listen on (default 127.0.0.1:8808; port 0 picks a free one). Addresses beyond loopback are refused without authentication',
    )
    .option(
      '--allow-origin <origin...>',
      'with --http: browser origins allowed to call the server besides its own (https://app.example); others get 403',
    )
    .option(
      '--store <url>',
      'with --http: where keys, usage, audit, notes and facts live: `sqlite` (default) or a postgres:// URL shared by several replicas (also MESHLENS_STORE, [server] store)',
    )
    .action(async (options: ServeCommandOptions) => {
      const base = {
        reload: () => openConfig(globals),
        logger,
        surface: options.surface,
        structuredOutput: !options.textOnly,
        watch: options.watch,
      };
      if (options.http) {
        const { serveHttpCommand } = await import('./serve-http.js');
        const http = {
          allowedOrigins: options.allowOrigin ?? [],
          ...(options.store !== undefined ? { store: options.store } : {}),
        };
        const refusal = await serveHttpCommand(
          options.listen ? { ...http, listen: options.listen } : http,
          base,
        );
        if (refusal !== undefined) throw new UsageError(refusal);
        return;
      }
      if (options.listen !== undefined || options.allowOrigin !== undefined || options.store !== undefined) {
        throw new UsageError(
          '--listen, --allow-origin and --store go with --http (serve over HTTP instead of stdio)',
        );
      }
      const { attachToDaemon } = await import('./serve-attach.js');
      const attached = await attachToDaemon({
        ...globals,
        surface: options.surface,
        structuredOutput: !options.textOnly,
        watch: options.watch,
        allowOutsideWorkspace: globals.allowOutsideWorkspace ?? false,
        // The program's own `--no-daemon` takes the flag wherever it stands, before serve's sees it.
        daemon: options.daemon && !argv.includes(NO_DAEMON_FLAG),
      });
      if (attached.kind === 'ended') return;
      const { serveStdio } = await import('./serve.js');
      await serveStdio({ ...base, loaded: openConfig(globals) });
    });
}

interface ServeCommandOptions {
  readonly surface: 'domain' | 'flat';
  readonly store?: string;
  readonly textOnly: boolean;
  readonly watch: boolean;
  readonly daemon: boolean;
  readonly http: boolean;
  readonly listen?: string;
  readonly allowOrigin?: string[];
}

function addInitCommand(program: Command, { argv, globals }: CommandContext): void {
  program
    .command('init')
    .description(
      'Propose a meshlens.toml from the folder layout (printed; written with --auto) and register the server with MCP clients.',
    )
    .option('--auto', 'write meshlens.toml in the workspace folder instead of printing it', false)
    .option('--force', 'replace an existing meshlens.toml (--auto)', false)
    .option(
      '--write-ide-config',
      'register the server with the MCP clients of the workspace: .mcp.json (Claude Code), .cursor/mcp.json, .vscode/mcp.json, and the Codex, Gemini CLI, Zed and Continue configs whose folder the workspace has',
      false,
    )
    .option(
      '--ide <clients>',
      `register the server with these clients only (comma-separated; implies --write-ide-config): ${IDE_CLIENT_NAMES.join(', ')}. windsurf and cline are user-level files outside the workspace, written only when named here`,
    )
    .action(async (options: { auto: boolean; force: boolean; writeIdeConfig: boolean; ide?: string }) => {
      const { initCommand } = await import('./init-command.js');
      const { ide, ...rest } = options;
      const named = ide === undefined ? undefined : clientsNamed(ide);
      if (named && 'error' in named) throw new UsageError(named.error);
      // No config is loaded: init must work where there is none, or where the existing one is broken.
      initCommand({
        workspaceDir: path.resolve(process.cwd(), globals.workspace ?? '.'),
        ...rest,
        ...(named ? { ideClients: named.clients } : {}),
        cliPath: argv[1] ?? process.argv[1] ?? '',
        write,
        warn: (text) => process.stderr.write(`meshlens: ${text}\n`),
      });
    });
}

function addIndexCommand(program: Command, { logger, globals }: CommandContext): void {
  program
    .command('index')
    .description(
      'Index the workspace and print a summary (roots, files, rejects, languages, symbols, cache, time).',
    )
    .option('--json', 'print the summary as JSON', false)
    .action(async (options: { json: boolean }) => {
      const { indexCommand } = await import('./index-command.js');
      await indexCommand({ loaded: openConfig(globals), logger, json: options.json, write });
    });
}

function addGraphCommand(program: Command, { logger, globals }: CommandContext): void {
  program
    .command('graph')
    .description(
      'Render the full topology (html, mermaid), the whole contract graph (json), every call site and its binding (calls) or the index fingerprint.',
    )
    .addOption(
      new Option('--format <format>', 'output format')
        .choices(['html', 'mermaid', 'json', 'calls', 'fingerprint'])
        .default('html'),
    )
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (options: { format: GraphFormat; output?: string }) => {
      const { graphCommand } = await import('./graph-command.js');
      await graphCommand({
        loaded: openConfig(globals),
        logger,
        format: options.format,
        ...(options.output ? { output: options.output } : {}),
        write,
      });
    });
}

function addDoctorCommand(program: Command, { logger, globals }: CommandContext): void {
  program
    .command('doctor')
    .description('Check the config, roots, grammars, git, index, cache and audit log; one line per check.')
    .option('--json', 'print the checks and a summary as JSON', false)
    .option(
      '--fix',
      "repair what is safe: this workspace's corrupt or stale caches (never the audit log)",
      false,
    )
    .action(async (options: { json: boolean; fix: boolean }) => {
      const { doctorCommand } = await import('./doctor-command.js');
      // Settings outside the workspace are left out, not fatal, so that doctor can name them and check the rest.
      const load = () => openConfig(globals, globals.allowOutsideWorkspace ? 'allow' : 'leave-out');
      process.exitCode = await doctorCommand({ load, logger, ...options, write });
    });
}

function addCheckCommand(program: Command, { io, runtime }: CommandContext): void {
  program
    .command('check')
    .description(
      'For CI: the impact of the working tree against a git revision (what `contracts impact --diff` answers). Exit 1 on a wire-breaking change or a contract or declaration removed while still used, 0 otherwise, 2 when the check cannot run (bad revision, no git repository).',
    )
    .option(
      '--diff <revision>',
      'the revision to compare the working tree with ("HEAD": uncommitted work)',
      'HEAD',
    )
    .option('--json', 'print the JSON rendering instead of Markdown', false)
    .action(async (options: { diff: string; json: boolean }) => {
      const { checkCommand } = await import('./check-command.js');
      process.exitCode = await checkCommand({
        ...options,
        run: (op, rawArgs, json) => runOperation(runtime, io, op, rawArgs, json),
      });
    });
}

export async function main(argv: readonly string[] = process.argv): Promise<number> {
  return runCommandLine(argv, createLogger());
}

/**
 * Runs one command line and returns its exit status; what it prints goes to `io`. A workspace daemon runs
 * the operation commands it answers through here too, with its own runtime, so that they print the same.
 */
export async function runCommandLine(
  argv: readonly string[],
  logger: Logger,
  options: ProgramOptions = {},
): Promise<number> {
  const io = options.io ?? processIo();
  const program = buildProgram(argv, logger, { ...options, io });
  try {
    await program.parseAsync(argv as string[]);
    return io.status ?? EXIT.ok;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help')
      return EXIT.ok;
    if (code?.startsWith('commander.')) return EXIT.usage;
    if (error instanceof CommandDeclined) throw error;
    if (error instanceof ConfigError || error instanceof UsageError) {
      io.stderr(`meshlens: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof StoreCommandError) {
      io.stderr(`meshlens: ${error.message}\n`);
      return EXIT.toolError;
    }
    logger.error({ err: error }, 'command failed');
    io.stderr(`meshlens: ${(error as Error).message}\n`);
    return EXIT.toolError;
  }
}
