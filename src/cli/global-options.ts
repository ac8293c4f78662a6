import { ALLOW_OUTSIDE_FLAG } from '../core/workspace-boundary.js';

/**
 * The CLI's own options, which may stand anywhere on the command line. Read here without commander or the
 * config schema, so that the in-process run and the thin path to a workspace daemon read them alike.
 */
export interface GlobalOptions {
  readonly workspace?: string;
  readonly config?: string;
  /** `--allow-outside-workspace`: the config may send meshlens to read outside the workspace. */
  readonly allowOutsideWorkspace?: boolean;
}

/** Global options that take a value. */
export const GLOBAL_VALUE_OPTIONS = ['--workspace', '--config'] as const;

/** `--no-daemon`: answer in this process, not through the workspace daemon (also MESHLENS_NO_DAEMON=1). */
export const NO_DAEMON_FLAG = '--no-daemon';

/** Global options that are flags. */
export const GLOBAL_FLAGS = [ALLOW_OUTSIDE_FLAG, NO_DAEMON_FLAG] as const;

export function globalOptionsOf(argv: readonly string[]): GlobalOptions {
  const pick = (name: string): string | undefined => {
    for (let i = 0; i < argv.length; i++) {
      const word = argv[i] as string;
      if (word === name) return argv[i + 1];
      if (word.startsWith(`${name}=`)) return word.slice(name.length + 1);
    }
    return undefined;
  };
  const workspace = pick('--workspace');
  const config = pick('--config');
  const allowOutside = argv.includes(ALLOW_OUTSIDE_FLAG);
  return {
    ...(workspace ? { workspace } : {}),
    ...(config ? { config } : {}),
    ...(allowOutside ? { allowOutsideWorkspace: true } : {}),
  };
}

/** Where the command word is in argv (the first word after the global options), or -1. */
function commandIndexOf(argv: readonly string[]): number {
  for (let i = 2; i < argv.length; i++) {
    const word = argv[i] as string;
    if ((GLOBAL_VALUE_OPTIONS as readonly string[]).includes(word)) i++;
    else if (!word.startsWith('-')) return i;
  }
  return -1;
}

/** The first word after the global options: the command (undefined for a bare `meshlens` or `--help`). */
export function commandWordOf(argv: readonly string[]): string | undefined {
  const at = commandIndexOf(argv);
  return at === -1 ? undefined : argv[at];
}

/** The two words of `meshlens <domain> <mode> …`, or undefined when the word after the command is an option. */
export function commandWordsOf(argv: readonly string[]): { command: string; sub: string } | undefined {
  const at = commandIndexOf(argv);
  const sub = at === -1 ? undefined : argv[at + 1];
  if (sub === undefined || sub.startsWith('-')) return undefined;
  return { command: argv[at] as string, sub };
}
