import type { z } from 'zod';

/** At most nine domains (DESIGN §3.4); each becomes one tool on the domain surface. */
export const DOMAINS = ['code', 'contracts', 'docs', 'graph', 'git', 'admin'] as const;
export type Domain = (typeof DOMAINS)[number];

/** What an operation does to the world; drives annotations, governance and the "still indexing" gate. */
export interface Capabilities {
  /** Changes something (the index, a file, a downstream system). Writing operations meet stop rules. */
  readonly writes?: boolean;
  /** Deletes or overwrites something a user would miss. Only meaningful when `writes`. */
  readonly destructive?: boolean;
  /** Repeating the call with the same arguments has no further effect. Reads are idempotent. */
  readonly idempotent?: boolean;
  /** Talks to something outside the indexed workspace. */
  readonly openWorld?: boolean;
  /** Needs an installed snapshot; before the first one the call is a "still indexing" tool failure. */
  readonly requiresIndex?: boolean;
  /** Returns a list that pages with `offset`/`limit` under the page budget. */
  readonly paged?: boolean;
}

export interface ProgressReporter {
  (progress: number, total?: number, message?: string): void;
}

/** What the registry hands to every `run`. Services are typed by the composition root. */
export interface OperationContext<Services = unknown> {
  readonly signal: AbortSignal;
  readonly progress: ProgressReporter;
  /** Bytes of rendered entries a list page may hold (8 KiB by default). */
  readonly pageBudget: number;
  readonly services: Services;
}

/** A successful answer, rendered both ways. */
export interface OperationOutput<Data extends object = object> {
  /** The JSON rendering (`--json`, MCP `structuredContent`). */
  readonly data: Data;
  /** The Markdown rendering (MCP text content, CLI default). */
  readonly markdown: string;
  /** Files whose content went into the answer (audit). */
  readonly filesRead?: readonly string[];
  /** Secret values masked in the answer (audit). */
  readonly redactions?: number;
  /** A complete document (JSON graph, HTML page): never cut, never annotated. */
  readonly document?: boolean;
  /**
   * The answer reports something a script should fail on (a wire-breaking change): the CLI exits 1, though
   * the call itself succeeded.
   */
  readonly failing?: boolean;
  /** One-line notes the registry places at the top of the Markdown (e.g. "answered from generation 4"). */
  readonly notes?: readonly string[];
}

export interface OperationSpec<Shape extends z.ZodRawShape = z.ZodRawShape, Services = unknown> {
  readonly domain: Domain;
  readonly mode: string;
  /** Name on the flat surface (one tool per operation), e.g. `smart_search`. */
  readonly flatName: string;
  readonly title: string;
  /** One sentence, a concrete example, and one "DO NOT USE … (use …)" clause. */
  readonly description: string;
  /** Flat argument fields; the registry wraps them in a strict object. */
  readonly args: Shape;
  /**
   * The shape of `data` (the JSON answer), advertised as the MCP `outputSchema` and sent as
   * `structuredContent`. Loose objects: fields may be added without breaking clients.
   */
  readonly output: z.ZodObject;
  readonly capabilities: Capabilities;
  /**
   * Fields holding a path. The registry resolves each one through the path jail before `run`, so `run` only
   * ever sees a canonical absolute path inside a configured root (the spelling `.`/`*` for "everything"
   * resolves to undefined).
   */
  readonly pathFields?: readonly string[];
  /**
   * The path fields may name a file that no longer exists (the history of a deleted file). It is still held
   * inside the roots, judged through its deepest existing folder.
   */
  readonly missingPathsAllowed?: boolean;
  /** Narrowing advice appended when the answer still exceeds the hard cap (one line). */
  truncationHint?(args: z.output<z.ZodObject<Shape>>): string;
  /** What the call is about (a scope or target), for stop rules and skill hints. */
  subject?(args: z.output<z.ZodObject<Shape>>): string | undefined;
  run(
    args: z.output<z.ZodObject<Shape>>,
    ctx: OperationContext<Services>,
  ): Promise<OperationOutput> | OperationOutput;
}

// The registry stores operations of many argument shapes side by side; their `run` is only ever called with
// arguments parsed by that operation's own schema, so erasing the shape here is sound.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation<Services = any> = OperationSpec<any, Services>;

/** Declares an operation; the identity function exists so that `args` infers the argument types of `run`. */
export function defineOperation<Shape extends z.ZodRawShape, Services>(
  spec: OperationSpec<Shape, Services>,
): OperationSpec<Shape, Services> {
  return spec;
}

export const operationKey = (op: { domain: string; mode: string }): string => `${op.domain}.${op.mode}`;
