import { readFileSync, statSync } from 'node:fs';
import { ToolError } from '../../core/errors.js';
import { locateRepository, resolveBase, showAtCommit, type ResolvedBase } from './git-show.js';
import { compareProtoTexts } from './wire-check/compare-proto-texts.js';
import type { WireFinding } from './wire-check/findings.js';

/**
 * The wire-format check: a `.proto` in the working tree against the same path at a git base. Both versions
 * are parsed with protobufjs and compared element by element, by field and enum numbers (what travels on
 * the wire) rather than by names (what the code sees). This file reads the two versions; the parsing and
 * the comparison live in wire-check/.
 */

/** The indexing guard's limit for schema files: both versions must pass it, as the indexed one did. */
export const MAX_PROTO_BYTES = 1_572_864;

export type WireCheck =
  | {
      readonly status: 'compared';
      readonly file: string;
      readonly base: ResolvedBase;
      readonly findings: readonly WireFinding[];
    }
  | { readonly status: 'new_file'; readonly file: string; readonly base: ResolvedBase }
  | { readonly status: 'skipped'; readonly file: string; readonly reason: string };

export interface WireCheckRequest {
  /** Absolute, inside the roots. */
  readonly absolutePath: string;
  /** How the answer names the file. */
  readonly display: string;
  /** The caller's revision (already validated); undefined for the default base. */
  readonly base: string | undefined;
  readonly signal?: AbortSignal;
  /** Repository tops already resolved in this call → their base, so several files share one lookup. */
  readonly baseCache?: Map<string, Promise<Awaited<ReturnType<typeof resolveBase>>>>;
}

/**
 * Runs the check on one file. With an explicit base every failure is a tool error (the caller asked for
 * that comparison); with the default base a failure is a `skipped` result and the trace still answers.
 */
export async function checkWireFormat(request: WireCheckRequest): Promise<WireCheck> {
  const { display } = request;
  const explicit = request.base !== undefined;
  const fail = (
    reason: string,
    kind: 'unavailable' | 'not_found' | 'invalid_argument' = 'unavailable',
  ): WireCheck => {
    if (explicit)
      throw new ToolError(
        kind,
        `Wire check of \`${display}\` against \`${request.base}\` failed: ${reason}.`,
      );
    return { status: 'skipped', file: display, reason };
  };

  let headText: string;
  try {
    const size = statSync(request.absolutePath).size;
    if (size > MAX_PROTO_BYTES)
      return fail(
        `the working-tree file is ${size} bytes, over the ${MAX_PROTO_BYTES}-byte limit for schema files`,
      );
    headText = readFileSync(request.absolutePath, 'utf8');
  } catch (error) {
    return fail(
      `the working-tree file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      'not_found',
    );
  }

  const repo = await locateRepository(request.absolutePath, request.signal);
  if (repo.kind === 'no_repo') return fail('the file is not inside a git repository');
  if (repo.kind === 'failed') return fail(repo.reason);

  const cache = request.baseCache;
  const cacheKey = `${repo.location.top}\u0000${request.base ?? ''}`;
  let lookup = cache?.get(cacheKey);
  if (!lookup) {
    lookup = resolveBase(repo.location.top, request.base, request.signal);
    cache?.set(cacheKey, lookup);
  }
  const resolved = await lookup;
  if (resolved.kind === 'failed') return fail(resolved.reason, explicit ? 'invalid_argument' : 'unavailable');

  const blob = await showAtCommit(repo.location, resolved.base.commit, MAX_PROTO_BYTES, request.signal);
  switch (blob.kind) {
    case 'absent':
      return { status: 'new_file', file: display, base: resolved.base };
    case 'too_large':
      return fail(`the base version is over the ${MAX_PROTO_BYTES}-byte limit for schema files`);
    case 'failed':
      return fail(blob.reason);
    case 'content':
      break;
  }
  try {
    return {
      status: 'compared',
      file: display,
      base: resolved.base,
      findings: compareProtoTexts(blob.text, headText),
    };
  } catch (error) {
    return fail((error as Error).message);
  }
}
