import { isDeepStrictEqual } from 'node:util';

/** The name the server is registered under in every client config. */
export const IDE_SERVER_NAME = 'meshlens';

/** How a client starts a stdio server: the two keys meshlens owns in its entry. */
export interface ServerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * What meshlens writes for one client: the command, the arguments that launch meshlens before `serve` (a
 * script path, or nothing for a `meshlens` on PATH), and the workspace arguments after `serve`.
 */
export interface OwnedCommand {
  readonly command: string;
  readonly launch: readonly string[];
  readonly workspace: readonly string[];
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const commandName = (command: string): string =>
  command
    .split(/[\\/]/)
    .pop()!
    .replace(/\.(exe|cmd)$/i, '');

/** `--workspace DIR` and `--workspace=DIR` are meshlens's own; everything else is the user's. */
function withoutWorkspace(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (word === '--workspace') i++;
    else if (!word.startsWith('--workspace=')) kept.push(word);
  }
  return kept;
}

/**
 * Splits the arguments an entry had before `serve` into the launcher meshlens owns and what the user added:
 * Node's own flags before the script (`node --max-old-space-size=8192 script serve`) and meshlens's global
 * options between the launcher and `serve` (`--config FILE`).
 */
function userPartsBeforeServe(command: string, before: readonly string[]) {
  const name = commandName(command);
  if (name === 'node') {
    const script = before.findIndex((word) => !word.startsWith('-'));
    if (script < 0) return { nodeFlags: [...before], options: [] };
    return { nodeFlags: before.slice(0, script), options: before.slice(script + 1) };
  }
  if (name === 'npx' || name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bunx') {
    const pkg = before.findIndex((word) => /^meshlens(@.*)?$/.test(word));
    return { nodeFlags: [], options: pkg < 0 ? [] : before.slice(pkg + 1) };
  }
  return { nodeFlags: [], options: [...before] };
}

/**
 * The command and arguments an entry should have: what meshlens owns comes from `owned`, and every argument the
 * user added to a previous entry is kept in its place. A previous entry without a `serve` argument (or whose
 * arguments are not a list of strings) is not recognisably meshlens's: undefined says to leave it as written.
 */
export function mergeServerCommand(
  owned: OwnedCommand,
  previous?: Record<string, unknown>,
): ServerCommand | undefined {
  const fresh = { command: owned.command, args: [...owned.launch, 'serve', ...owned.workspace] };
  if (previous === undefined) return fresh;
  const args = previous.args ?? [];
  if (!isStringArray(args) || typeof previous.command !== 'string') return undefined;
  const serve = args.indexOf('serve');
  if (serve < 0) return undefined;
  const { nodeFlags, options } = userPartsBeforeServe(previous.command, args.slice(0, serve));
  const keepNodeFlags = commandName(owned.command) === 'node' ? nodeFlags : [];
  return {
    command: owned.command,
    args: [
      ...keepNodeFlags,
      ...owned.launch,
      ...withoutWorkspace(options),
      'serve',
      ...owned.workspace,
      ...withoutWorkspace(args.slice(serve + 1)),
    ],
  };
}

/** True when the entry already says exactly `command`. */
export const sameCommand = (entry: Record<string, unknown> | undefined, command: ServerCommand): boolean =>
  entry !== undefined && entry.command === command.command && isDeepStrictEqual(entry.args, command.args);
