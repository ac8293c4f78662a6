/**
 * Where a command's output goes and where its relative paths start: this process's streams and folder, or,
 * for a command a workspace daemon answers, buffers sent back to the CLI process that asked, with its folder.
 */
export interface CliIo {
  /** The folder `--workspace` and `--config` are read against. */
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Help text width on stdout and stderr (undefined: not a terminal, commander's 80). */
  readonly columns: { readonly stdout?: number; readonly stderr?: number };
  /** The exit status a command decided on; undefined for none (0). */
  status: number | undefined;
}

/** This process: its streams, its folder, `process.exitCode`. */
export function processIo(): CliIo {
  return {
    cwd: process.cwd(),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    columns: {
      ...(process.stdout.isTTY ? { stdout: process.stdout.columns } : {}),
      ...(process.stderr.isTTY ? { stderr: process.stderr.columns } : {}),
    },
    get status() {
      return typeof process.exitCode === 'number' ? process.exitCode : undefined;
    },
    set status(value) {
      process.exitCode = value;
    },
  };
}

/** What a command wrote, kept to be sent elsewhere. */
export interface BufferedIo extends CliIo {
  readonly written: { stdout: string; stderr: string };
}

export function bufferedIo(cwd: string, columns: CliIo['columns']): BufferedIo {
  const written = { stdout: '', stderr: '' };
  return {
    cwd,
    columns,
    written,
    stdout: (text) => void (written.stdout += text),
    stderr: (text) => void (written.stderr += text),
    status: undefined,
  };
}

/** A command's answer as `print` writes it: ending with one newline. */
export const asLine = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);
