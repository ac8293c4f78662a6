/**
 * Many blobs through one `git cat-file --batch` process: reading each version of a file with its own
 * `git show` costs a process per version, which dominates a walk through a long history.
 */
import { spawn } from 'node:child_process';
import { ToolError } from '../../../core/errors.js';
import { gitEnvironment, GIT_TIMEOUT_MS } from './run-git.js';

export type BatchBlob =
  | { readonly kind: 'content'; readonly text: string }
  | { readonly kind: 'absent' }
  | { readonly kind: 'too_large'; readonly size: number };

export interface BatchOptions {
  readonly cwd: string;
  readonly signal: AbortSignal;
  /** A blob larger than this is reported, not read into the answer. */
  readonly maxBlobBytes: number;
  readonly timeoutMs?: number;
}

/** All blobs of one batch together: past this the batch is refused rather than held in memory. */
const MAX_BATCH_BYTES = 128 * 1024 * 1024;

/**
 * The objects named `<commit>:<path>` (one per spec), in order. A spec holding a newline cannot be asked
 * for on a line-based stdin, so it is answered `absent`. Rejects with a ToolError on a git failure or a
 * timeout, with an AbortError on a cancel.
 */
export function readBlobs(specs: readonly string[], options: BatchOptions): Promise<BatchBlob[]> {
  const askable = specs.filter((s) => !s.includes('\n'));
  if (askable.length === 0) return Promise.resolve(specs.map(() => ({ kind: 'absent' })));
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-c', 'core.fsmonitor=false', 'cat-file', '--batch'], {
      cwd: options.cwd,
      env: gitEnvironment(),
      stdio: ['pipe', 'pipe', 'ignore'],
      shell: false,
      windowsHide: true,
    });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
        return;
      }
      resolve(parseBatch(Buffer.concat(chunks), specs, options.maxBlobBytes));
    };
    const onAbort = () => finish(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
    let size = 0;
    const timer = setTimeout(
      () =>
        finish(
          new ToolError(
            'unavailable',
            `git cat-file did not answer within ${(options.timeoutMs ?? GIT_TIMEOUT_MS) / 1000} s`,
          ),
        ),
      options.timeoutMs ?? GIT_TIMEOUT_MS,
    );
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BATCH_BYTES)
        finish(new ToolError('unavailable', `git cat-file output exceeded ${MAX_BATCH_BYTES} bytes`));
      else chunks.push(chunk);
    });
    child.on('error', (error) =>
      finish(new ToolError('unavailable', `git could not be run: ${error.message}`)),
    );
    child.on('close', (code) =>
      finish(code === 0 ? undefined : new ToolError('unavailable', `git cat-file exited with ${code}`)),
    );
    child.stdin.on('error', () => undefined);
    child.stdin.end(askable.map((s) => `${s}\n`).join(''));
  });
}

function parseBatch(output: Buffer, specs: readonly string[], maxBlobBytes: number): BatchBlob[] {
  const blobs: BatchBlob[] = [];
  let at = 0;
  for (const spec of specs) {
    if (spec.includes('\n')) {
      blobs.push({ kind: 'absent' });
      continue;
    }
    const end = output.indexOf(0x0a, at);
    if (end < 0) break;
    const header = output.subarray(at, end).toString('utf8');
    at = end + 1;
    const match = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!match) {
      // `<spec> missing` (or ambiguous): nothing follows the header line.
      blobs.push({ kind: 'absent' });
      continue;
    }
    const size = Number(match[2]);
    const body = output.subarray(at, at + size);
    at += size + 1;
    if (match[1] !== 'blob') blobs.push({ kind: 'absent' });
    else if (size > maxBlobBytes) blobs.push({ kind: 'too_large', size });
    else blobs.push({ kind: 'content', text: body.toString('utf8') });
  }
  while (blobs.length < specs.length) blobs.push({ kind: 'absent' });
  return blobs;
}
