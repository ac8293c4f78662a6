import type { Admitter } from './admission.js';
import { DEFAULT_PAGE_BUDGET_BYTES, capText } from './budget.js';
import { argumentDigest } from './argument-digest.js';
import { allowAll, type CallPolicy, type CallRefusal } from './call-policy.js';
import { callerText, type CallRecord, type CallRecordSink } from './call-record.js';
import { ToolError, isAbortError } from './errors.js';
import { waitForIndex, type IndexProgress } from './index-wait.js';
import { silentLogger, type Logger } from './logger.js';
import { LOCAL_PRINCIPAL, type Principal } from './principal.js';
import {
  DOMAINS,
  operationKey,
  type AnyOperation,
  type Domain,
  type OperationOutput,
  type ProgressReporter,
} from './operation.js';
import { traceIdOf, validateCall, type CallAddress, type CallMeta } from './validation.js';
import {
  visibilityTableOf,
  visibleAddress,
  type VisibilitySection,
  type VisibilityTable,
  type VisibleSet,
} from './visibility.js';

export interface RegistryOptions<Services> {
  readonly operations: readonly AnyOperation<Services>[];
  readonly services: Services;
  /** Domains switched off in config: their operations are neither listed nor callable anywhere. */
  readonly disabledDomains?: readonly string[];
  /**
   * `[server.visibility]`: what each key may see, by tenant and role (checked against `operations`; a bad
   * rule throws a ConfigError). Without it a key sees nothing; the local principal always sees everything.
   */
  readonly visibility?: VisibilitySection;
  /** The audit trail: one record per call. */
  readonly audit?: CallRecordSink;
  /** The configured governance: may refuse a call, or add a skill hint to its answer. */
  readonly governance?: CallPolicy;
  readonly logger?: Logger;
  readonly pageBudget?: number;
  readonly session?: string;
  /** Why an index-reading call cannot run yet ("still indexing (120 of 800 files)"), or undefined. */
  readonly readiness?: () => string | undefined;
  /** How far the running index run has come, reported to a call waiting for the first index. */
  readonly indexProgress?: () => IndexProgress | undefined;
  /** How long an index-reading call waits for the first index before answering "still indexing" (0: not at all). */
  readonly firstCallWaitMs?: number;
  /**
   * The path jail: turns a path argument into a canonical absolute path inside the roots, undefined for "all
   * roots", or throws a ToolError naming the argument and the allowed roots.
   */
  readonly resolvePath?: (
    argument: string,
    value: string,
    check?: { readonly mayBeMissing?: boolean },
  ) => string | undefined;
  /** Notes about the state being served (e.g. a git operation holding reloads), placed at the top. */
  readonly stateNotes?: () => readonly string[];
  /** Rate limits and quotas: consulted first on every call, before anything else is done for it. */
  readonly admission?: Admitter;
  /** The clock admission reads (tests move it); `Date.now` otherwise. */
  readonly now?: () => number;
}

export interface InvocationRequest {
  readonly address: CallAddress;
  readonly rawArgs: unknown;
  /** `params._meta` of the request, if any. */
  readonly requestMeta?: unknown;
  readonly signal?: AbortSignal;
  /** Sends a progress notification for the caller's `progressToken`. */
  readonly sendProgress?: (
    token: string | number,
    progress: number,
    total?: number,
    message?: string,
  ) => void;
  /** Sends a log message to the caller (MCP `notifications/message`), for waits without a progress token. */
  readonly sendLog?: (message: string) => void;
  /** The MCP client making the call, as it named itself (`clientInfo`). */
  readonly client?: { readonly name: string; readonly version?: string };
  /** Who is calling: an API key's owner over HTTP; the local principal when absent (stdio). */
  readonly principal?: Principal;
  /** Admitted by the transport already (HTTP, to answer 429 with Retry-After): not counted twice. */
  readonly admitted?: boolean;
  /**
   * The caller's session for the audit record, when one registry serves several (HTTP sessions); the
   * registry's own `session` otherwise.
   */
  readonly session?: string;
}

export interface InvocationResult {
  readonly isError: boolean;
  /** Markdown (or the document itself), within the hard cap. */
  readonly text: string;
  /** The JSON rendering, with `elapsed_ms`. */
  readonly json: Record<string, unknown>;
  readonly document: boolean;
  /** The answer reports something a script should fail on (see `OperationOutput.failing`). */
  readonly failing?: boolean;
}

/**
 * The one place that wraps every operation call: validation, governance, the index gate, cancellation and
 * progress plumbing, notes, the output cap, timing and one audit record. Operations contain none of it.
 */
export class Registry<Services = unknown> {
  private readonly enabled: readonly AnyOperation<Services>[];
  private readonly options: RegistryOptions<Services>;
  /** Undefined in a view: a view is what one entry of the table sees, and is narrowed already. */
  private readonly table: VisibilityTable | undefined;
  private readonly views = new Map<string, Registry<Services>>();
  /** In a view: what its callers may see, which every address it is called with is narrowed to. */
  private readonly visible: VisibleSet | undefined;

  constructor(options: RegistryOptions<Services>, visible?: VisibleSet) {
    this.options = options;
    this.visible = visible;
    this.table = visible ? undefined : visibilityTableOf(options.visibility, options.operations);
    const disabled = new Set(options.disabledDomains ?? []);
    const seen = new Set<string>();
    for (const op of options.operations) {
      for (const key of [operationKey(op), `flat:${op.flatName}`]) {
        if (seen.has(key)) throw new Error(`duplicate operation ${key}`);
        seen.add(key);
      }
    }
    const order = (d: Domain) => DOMAINS.indexOf(d);
    this.enabled = options.operations
      .filter((op) => !disabled.has(op.domain) && (visible?.allows(op) ?? true))
      .sort((a, b) => order(a.domain) - order(b.domain));
  }

  operations(): readonly AnyOperation<Services>[] {
    return this.enabled;
  }

  /**
   * This registry with other domains switched off (a config reload): the same services, audit and
   * policies. Returns this one when the same operations stay enabled.
   */
  withDisabledDomains(disabledDomains: readonly string[]): Registry<Services> {
    const next = new Registry({ ...this.options, disabledDomains });
    const same =
      next.enabled.length === this.enabled.length && next.enabled.every((op, i) => op === this.enabled[i]);
    return same ? this : next;
  }

  /**
   * This registry as one caller sees it: only the operations its tier of `[server.visibility]` lists, so
   * that its tool list, its prompts and resources, and the answer to a call of anything else all come from
   * the same set. Callers of the same tier share one view.
   */
  viewFor(principal: Principal): Registry<Services> {
    if (!this.table) return this;
    const visible = this.table.setFor(principal);
    if (visible.everything) return this;
    let view = this.views.get(visible.key);
    if (!view) this.views.set(visible.key, (view = new Registry(this.options, visible)));
    return view;
  }

  /** This registry with another visibility table (a config reload); this one when the table is the same. */
  withVisibility(visibility: VisibilitySection): Registry<Services> {
    const same = JSON.stringify(visibility) === JSON.stringify(this.options.visibility ?? EMPTY_TABLE);
    return same ? this : new Registry({ ...this.options, visibility });
  }

  domains(): { domain: Domain; ops: readonly AnyOperation<Services>[] }[] {
    return DOMAINS.map((domain) => ({
      domain,
      ops: this.enabled.filter((op) => op.domain === domain),
    })).filter((entry) => entry.ops.length > 0);
  }

  byFlatName(name: string): AnyOperation<Services> | undefined {
    return this.enabled.find((op) => op.flatName === name);
  }

  byDomainMode(domain: string, mode: string): AnyOperation<Services> | undefined {
    return this.enabled.find((op) => op.domain === domain && op.mode === mode);
  }

  /** A key's call is run by its view, whatever registry it was addressed to: no way around the tiers. */
  async invoke(request: InvocationRequest): Promise<InvocationResult> {
    const view = this.viewFor(request.principal ?? LOCAL_PRINCIPAL);
    return view === this ? this.run(request) : view.invoke(request);
  }

  private async run(request: InvocationRequest): Promise<InvocationResult> {
    const trace = new CallTrace(request);
    try {
      await this.admit(request);
      const address = this.visible ? visibleAddress(request.address, this.visible) : request.address;
      const call = validateCall(address, request.rawArgs, request.requestMeta);
      trace.meta = call.meta;
      const op = call.op;
      trace.operation = operationKey(op);
      this.resolvePathArguments(op, call.args);
      const subject = op.subject?.(call.args);
      const decision = (this.options.governance ?? allowAll).evaluate(op, subject);
      if (decision.kind === 'refuse') throw refusalError(decision.refusal);
      if (decision.kind === 'warn') trace.warning = decision.message;
      const signal = request.signal ?? new AbortController().signal;
      if (readsIndex(op, call.args)) {
        const notReady = await this.awaitIndex(request, call.meta.progressToken, signal);
        if (signal.aborted) throw new ToolError('cancelled', 'The call was cancelled.');
        if (notReady) throw new ToolError('still_indexing', notReady);
      }
      const output: OperationOutput = await op.run(call.args, {
        signal,
        progress: progressReporter(request, call.meta.progressToken),
        pageBudget: this.options.pageBudget ?? DEFAULT_PAGE_BUDGET_BYTES,
        services: this.options.services,
        ...(request.client ? { client: request.client } : {}),
      });
      if (signal.aborted) throw new ToolError('cancelled', 'The call was cancelled.');
      trace.filesRead = output.filesRead ?? [];
      trace.redactions = output.redactions ?? 0;
      return this.finish(trace, 'ok', this.render(op, call.args, subject, output, trace.elapsed));
    } catch (error) {
      return this.failed(trace, error);
    }
  }

  /** Every call is admitted (and counted) first, even one that will prove invalid: each costs the server. */
  private async admit(request: InvocationRequest): Promise<void> {
    const admission = this.options.admission;
    if (!admission || request.admitted) return;
    const decision = await admission.admit(
      request.principal ?? LOCAL_PRINCIPAL,
      (this.options.now ?? Date.now)(),
    );
    if (!decision.ok) {
      throw new ToolError('refused', decision.message, {
        policy: 'rate_limit',
        retry_after_seconds: decision.retryAfterSeconds,
      });
    }
  }

  /** Waits (within the configured bound) for the first index, telling the caller how far it has come. */
  private awaitIndex(
    request: InvocationRequest,
    token: string | number | undefined,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const { readiness, indexProgress, firstCallWaitMs } = this.options;
    if (!readiness) return Promise.resolve(undefined);
    const report = progressReporter(request, token);
    return waitForIndex({
      readiness,
      progress: () => indexProgress?.(),
      timeoutMs: firstCallWaitMs ?? 0,
      signal,
      onProgress: (progress) => {
        const message = progress
          ? `Waiting for the first index: ${progress.done} of ${progress.total} files.`
          : 'Waiting for the first index to start.';
        if (token !== undefined) report(progress?.done ?? 0, progress?.total, message);
        else request.sendLog?.(message);
      },
    });
  }

  /** The path jail over an operation's path arguments: each becomes canonical, or goes for "all roots". */
  private resolvePathArguments(op: AnyOperation, args: Record<string, unknown>): void {
    const resolvePath = this.options.resolvePath;
    if (!resolvePath) return;
    for (const field of op.pathFields ?? []) {
      const value = args[field];
      if (typeof value !== 'string') continue;
      const resolved = resolvePath(field, value, op.missingPathsAllowed ? { mayBeMissing: true } : undefined);
      if (resolved === undefined) delete args[field];
      else args[field] = resolved;
    }
  }

  /** A thrown tool failure is answered as it is, a cancellation as one; anything else is an internal error. */
  private failed(trace: CallTrace, error: unknown): InvocationResult {
    if (error instanceof ToolError) {
      return this.finish(trace, statusOf(error), failureResult(error, trace.elapsed()));
    }
    if (isAbortError(error)) {
      const cancelled = new ToolError('cancelled', 'The call was cancelled.');
      return this.finish(trace, 'error', failureResult(cancelled, trace.elapsed()));
    }
    (this.options.logger ?? silentLogger).error(
      { err: error, operation: trace.operation },
      'operation failed',
    );
    const internal = new ToolError(
      'unavailable',
      `Internal error in ${trace.operation}; the details are in the server log. Retry once; if it fails again, report it.`,
    );
    return this.finish(trace, 'error', failureResult(internal, trace.elapsed()));
  }

  /** Every call ends here, whatever its outcome: one audit record, then the result. */
  private finish(trace: CallTrace, status: CallRecord['status'], result: InvocationResult): InvocationResult {
    this.audit(trace.record(status, trace.session ?? this.options.session ?? 'local'));
    return result;
  }

  private render(
    op: AnyOperation,
    args: Record<string, unknown>,
    subject: string | undefined,
    output: OperationOutput,
    elapsed: () => number,
  ): InvocationResult {
    const json = { ...(output.data as Record<string, unknown>), elapsed_ms: elapsed() };
    const failing = output.failing === true ? { failing: true } : {};
    if (output.document) return { isError: false, text: output.markdown, json, document: true, ...failing };
    const skill = this.options.governance?.skillHint?.(op, subject);
    const notes = [
      ...(skill ? [skill] : []),
      ...(this.options.stateNotes?.() ?? []),
      ...(output.notes ?? []),
    ];
    const body =
      notes.length > 0 ? `${notes.map((n) => `> ${n}`).join('\n')}\n\n${output.markdown}` : output.markdown;
    return {
      isError: false,
      text: capText(body, op.truncationHint?.(args)),
      json,
      document: false,
      ...failing,
    };
  }

  private audit(record: CallRecord): void {
    try {
      this.options.audit?.record(record);
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'audit record dropped');
    }
  }
}

const EMPTY_TABLE: VisibilitySection = { roles: {}, tenants: {} };

/** What one call's audit record needs, gathered as the call goes on. */
class CallTrace {
  private readonly started = performance.now();
  /** Refined from the address to the validated operation once the call is valid. */
  operation: string;
  meta: CallMeta = {};
  filesRead: readonly string[] = [];
  redactions = 0;
  warning: string | undefined;

  constructor(private readonly request: InvocationRequest) {
    this.operation = auditNameOf(request.address, request.rawArgs);
  }

  get session(): string | undefined {
    return this.request.session;
  }

  readonly elapsed = (): number => Math.round((performance.now() - this.started) * 1000) / 1000;

  record(status: CallRecord['status'], session: string): CallRecord {
    const traceId = traceIdOf(this.meta.traceparent);
    return {
      time: new Date().toISOString(),
      session,
      operation: this.operation,
      argumentDigest: argumentDigest(this.request.rawArgs),
      status,
      elapsedMs: this.elapsed(),
      filesRead: this.filesRead,
      redactions: this.redactions,
      ...(traceId ? { traceId } : {}),
      ...(this.warning ? { warning: this.warning } : {}),
      caller: callerText(this.request.principal ?? LOCAL_PRINCIPAL),
    };
  }
}

function failureResult(error: ToolError, elapsedMs: number): InvocationResult {
  return {
    isError: true,
    text: error.message,
    json: {
      error: { kind: error.kind, message: error.message, ...(error.payload ?? {}) },
      elapsed_ms: elapsedMs,
    },
    document: false,
  };
}

/** A refusal as the agent reads it: the policy and its message, then the policy's hand-off as JSON. */
function refusalError(refusal: CallRefusal): ToolError {
  return new ToolError(
    'refused',
    `Refused by policy ${refusal.policy}: ${refusal.message_to_user}\n\n` +
      '```json\n' +
      JSON.stringify(refusal, null, 2) +
      '\n```',
    { ...refusal },
  );
}

/** Whether a call with these arguments reads the index, so must wait for (or, on the CLI, run) the first one. */
export function readsIndex(op: AnyOperation, args: Readonly<Record<string, unknown>>): boolean {
  return op.readsIndex ? op.readsIndex(args) : op.capabilities.requiresIndex === true;
}

/** Progress for the caller's token, if it sent one; values must increase, so repeated or stale ones are dropped. */
function progressReporter(request: InvocationRequest, token: string | number | undefined): ProgressReporter {
  let last = -Infinity;
  return (value, total, message) => {
    if (token === undefined || !request.sendProgress || value <= last) return;
    last = value;
    request.sendProgress(token, value, total, message);
  };
}

function statusOf(error: ToolError): CallRecord['status'] {
  if (error.kind === 'invalid_argument' || error.kind === 'outside_roots') return 'invalid';
  if (error.kind === 'refused') return 'refused';
  return 'error';
}

/** The operation a call addresses, as far as it can be told before validation (`code.?` for no valid mode). */
function auditNameOf(address: CallAddress, rawArgs: unknown): string {
  if (address.kind === 'operation') return operationKey(address.op);
  const mode = rawArgs && typeof rawArgs === 'object' ? (rawArgs as { mode?: unknown }).mode : undefined;
  const op = address.ops.find((o) => o.mode === mode);
  return op ? operationKey(op) : `${address.domain}.?`;
}
