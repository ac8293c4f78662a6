import { DOMAINS } from '../core/operation.js';
import { commandWordsOf, NO_DAEMON_FLAG } from './global-options.js';

/**
 * The operations that write (`capabilities.writes`), as `<domain> <mode>`: the CLI runs them itself without
 * asking a daemon (see `answersInDaemon`). Kept here rather than read from the catalogue, which the thin
 * path must not load; a test keeps the two in step.
 */
export const WRITING_COMMANDS: readonly string[] = ['admin rescan', 'memory put', 'memory delete'];

/** Words after which commander prints help or the version instead of running anything. */
const HELP_WORDS = ['-h', '--help', '-V', '--version'];

/**
 * Whether the workspace daemon may be asked to answer this command line: an operation command
 * (`meshlens <domain> <mode> …`) that writes nothing, not help, on a platform with private Unix sockets,
 * not opted out. Read from argv alone, before anything heavy is loaded; the daemon checks again.
 */
export function daemonMayAnswer(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  if (process.platform === 'win32' || env.MESHLENS_NO_DAEMON === '1') return false;
  if (argv.includes(NO_DAEMON_FLAG) || argv.some((word) => HELP_WORDS.includes(word))) return false;
  const words = commandWordsOf(argv);
  if (words === undefined || !(DOMAINS as readonly string[]).includes(words.command)) return false;
  return !WRITING_COMMANDS.includes(`${words.command} ${words.sub}`);
}

/**
 * Which operations a daemon answers for the CLI: those that change nothing. A call whose daemon dies before
 * answering is answered again in the CLI's process, which must not do a write twice (a note stored, a note
 * deleted and then reported missing); `admin rescan` would rescan the daemon's index and describe that run,
 * not the CLI's own. Everything else reads, and reads the same index the CLI would build.
 */
export function answersInDaemon(op: { readonly capabilities: { readonly writes?: boolean } }): boolean {
  return op.capabilities.writes !== true;
}
