/**
 * The three kinds of failure (DESIGN §4). A tool failure is an answer the caller can act on; it travels as a
 * normal result with `isError: true`. Protocol faults are raised by the server layer, and anything else is an
 * internal error that is logged with its stack and reported without details.
 */
export type ToolFailureKind =
  | 'invalid_argument'
  | 'outside_roots'
  | 'not_found'
  | 'refused'
  | 'still_indexing'
  | 'unavailable'
  | 'cancelled';

export class ToolError extends Error {
  readonly kind: ToolFailureKind;
  /** Structured details for the JSON rendering (e.g. a governance refusal payload). */
  readonly payload: Readonly<Record<string, unknown>> | undefined;

  constructor(kind: ToolFailureKind, message: string, payload?: Record<string, unknown>) {
    super(message);
    this.name = 'ToolError';
    this.kind = kind;
    this.payload = payload;
  }
}

export const invalidArgument = (message: string): ToolError => new ToolError('invalid_argument', message);

export function isAbortError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR')
  );
}
