/**
 * The one way meshlens runs git: an argument array (never a shell), an environment that cannot redirect it to
 * another repository, a timeout, capped output, and failures as values rather than exceptions.
 */
import { spawn } from 'node:child_process';

/** Every git command gets this long; a hung credential helper or a huge repository must not hang a call. */
export const GIT_TIMEOUT_MS = 5_000;
/** Output of plumbing commands (a SHA, a tree entry) is tiny; anything bigger is refused. */
export const SMALL_OUTPUT_BYTES = 64 * 1024;
const STDERR_BYTES = 8 * 1024;

/**
 * Variables that point git at another repository, index, object store or configuration. A server launched
 * from inside a git hook or an IDE terminal may inherit them, and then every command would read a
 * repository other than the one holding the file. `GIT_CEILING_DIRECTORIES` is kept: it only limits discovery.
 */
export const REPOSITORY_REDIRECT_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_QUARANTINE_PATH',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_REPLACE_REF_BASE',
] as const;

/** The environment git runs with: no redirection, no prompts, no optional locks, untranslated messages. */
export function gitEnvironment(inherited: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(inherited)) {
    if ((REPOSITORY_REDIRECT_VARIABLES as readonly string[]).includes(key)) continue;
    // The numbered companions of GIT_CONFIG_COUNT are inert without it, but they are configuration too.
    if (/^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(key)) continue;
    env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_OPTIONAL_LOCKS = '0';
  // Paths given to ls-tree are file names, never pathspec patterns.
  env.GIT_LITERAL_PATHSPECS = '1';
  env.LC_ALL = 'C';
  return env;
}

export type GitResult =
  | { readonly kind: 'ok'; readonly stdout: Buffer }
  | { readonly kind: 'failed'; readonly code: number | null; readonly stderr: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'too_large'; readonly limit: number }
  | { readonly kind: 'cancelled' };

export interface GitOptions {
  readonly cwd: string;
  /** Stdout beyond this is refused (the process is killed). Default `SMALL_OUTPUT_BYTES`. */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** Runs `git` with an argv array (never a shell), the safe environment, a timeout and capped output. */
export function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const maxBytes = options.maxBytes ?? SMALL_OUTPUT_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: GitResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const child = spawn('git', ['-c', 'core.fsmonitor=false', '--no-pager', ...args], {
      cwd: options.cwd,
      env: gitEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
    });
    const kill = () => {
      try {
        child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const onAbort = () => {
      kill();
      finish({ kind: 'cancelled' });
    };
    const timer = setTimeout(() => {
      kill();
      finish({ kind: 'timeout' });
    }, options.timeoutMs ?? GIT_TIMEOUT_MS);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        kill();
        finish({ kind: 'too_large', limit: maxBytes });
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_BYTES) stderr = (stderr + chunk.toString('utf8')).slice(0, STDERR_BYTES);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish(
        error.code === 'ENOENT' ? { kind: 'missing' } : { kind: 'failed', code: null, stderr: error.message },
      );
    });
    child.on('close', (code) => {
      if (code === 0) finish({ kind: 'ok', stdout: Buffer.concat(chunks) });
      else finish({ kind: 'failed', code, stderr: stderr.trim() });
    });
  });
}

/** A git failure as one line a caller can read. */
export function describeGitFailure(result: Exclude<GitResult, { kind: 'ok' }>): string {
  switch (result.kind) {
    case 'missing':
      return 'git is not installed or not on PATH';
    case 'timeout':
      return `git did not answer within ${GIT_TIMEOUT_MS / 1000} s`;
    case 'too_large':
      return `git output exceeded ${result.limit} bytes`;
    case 'cancelled':
      return 'the call was cancelled';
    case 'failed': {
      const line =
        result.stderr.split('\n').find((l) => l.trim() !== '') ?? `exit code ${String(result.code)}`;
      return line.replace(/^(fatal|error): /, '').trim();
    }
  }
}
