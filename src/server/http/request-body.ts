import type { IncomingMessage } from 'node:http';
import type { HttpRefusal } from './request-checks.js';

/** A JSON-RPC message (or batch) is small; 1 MiB leaves room for large arguments and refuses floods. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export type BodyResult =
  { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly refusal: HttpRefusal };

const tooLarge = (max: number): BodyResult => ({
  ok: false,
  refusal: {
    status: 413,
    message: `Payload Too Large: a request body may hold at most ${max} bytes`,
    // The rest of the body is not read: the connection cannot carry another request.
    headers: { Connection: 'close' },
  },
});

/**
 * Reads a POST body as JSON, up to `max` bytes. A declared length over the limit is refused before
 * anything is read; otherwise reading stops as soon as the limit is passed.
 */
export async function readJsonBody(request: IncomingMessage, max: number): Promise<BodyResult> {
  if (Number(request.headers['content-length'] ?? 0) > max) return tooLarge(max);
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > max) return tooLarge(max);
    chunks.push(chunk);
  }
  try {
    return { ok: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false, refusal: { status: 400, message: 'Parse error: the body is not valid JSON' } };
  }
}

/** Whether a POST says it carries JSON (`application/json`, with or without parameters). */
export function isJsonContentType(request: IncomingMessage): boolean {
  const type = request.headers['content-type'];
  return type?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}
