type Id = string | number;

/** A JSON-RPC message as the thin client sees it: only what it needs to keep its books. */
interface Frame {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

const frameOf = (line: string): Frame | undefined => {
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Frame) : undefined;
  } catch {
    return undefined;
  }
};

const isId = (id: unknown): id is Id => typeof id === 'string' || typeof id === 'number';
/** `1` and `"1"` are different ids. */
const keyOf = (id: Id): string => JSON.stringify(id);

/** The session state a new daemon must be told again: the client's `initialize`, then its later settings. */
const REPLAYED_REQUESTS = new Set(['initialize', 'logging/setLevel']);
const REPLAYED_NOTIFICATIONS = new Set(['notifications/initialized']);

/**
 * What the thin client remembers of its session so that a daemon that died can be replaced without the MCP
 * client noticing more than one failed request: the requests sent and not yet answered (each gets an error
 * saying to retry), and the lines that set the session up (sent again to the new daemon).
 */
export class SessionLedger {
  /** Requests sent to the daemon and not answered yet, by id key. */
  private readonly pending = new Map<string, Id>();
  /** Session-setting lines by method, in first-sent order; a later `logging/setLevel` replaces the earlier. */
  private readonly setup = new Map<string, string>();
  private initializeId: Id | undefined;

  /** Books a line the client sent (stdin → daemon). */
  sent(line: string): void {
    const frame = frameOf(line);
    if (!frame || typeof frame.method !== 'string') return;
    if (frame.method === 'notifications/cancelled') {
      const requestId = (frame.params as { requestId?: unknown } | undefined)?.requestId;
      if (isId(requestId)) this.pending.delete(keyOf(requestId));
    }
    if (REPLAYED_NOTIFICATIONS.has(frame.method)) this.setup.set(frame.method, line);
    if (!isId(frame.id)) return;
    this.pending.set(keyOf(frame.id), frame.id);
    if (REPLAYED_REQUESTS.has(frame.method)) this.setup.set(frame.method, line);
    if (frame.method === 'initialize') this.initializeId = frame.id;
  }

  /**
   * Books a line the daemon sent (daemon → stdout): an answer closes its request. Returns the answered id's
   * key (what `replay` swallows), or undefined for anything but an answer.
   */
  received(line: string): string | undefined {
    const frame = frameOf(line);
    if (!frame || frame.method !== undefined || !isId(frame.id)) return undefined;
    if (frame.result === undefined && frame.error === undefined) return undefined;
    this.pending.delete(keyOf(frame.id));
    return keyOf(frame.id);
  }

  /** True when the client's `initialize` was sent and is still unanswered. */
  private initializeUnanswered(): boolean {
    return this.initializeId !== undefined && this.pending.has(keyOf(this.initializeId));
  }

  /**
   * The daemon died: the requests it never answered, which the client must be told about. An unanswered
   * `initialize` is not among them: it is sent again to the new daemon, whose answer goes to the client.
   */
  takeLost(): Id[] {
    const lost = [...this.pending.values()].filter(
      (id) => !(this.initializeUnanswered() && keyOf(id) === keyOf(this.initializeId as Id)),
    );
    for (const id of lost) this.pending.delete(keyOf(id));
    return lost;
  }

  /**
   * The lines to send a new daemon, in order. A request the client already had answered goes with a
   * replay id (`replayId(n)`), so that its answer is recognised and swallowed; an unanswered `initialize`
   * goes as it was, and its answer reaches the client.
   */
  replay(replayId: (n: number) => string): { lines: string[]; swallow: Set<string> } {
    const lines: string[] = [];
    const swallow = new Set<string>();
    for (const [method, line] of this.setup) {
      if (REPLAYED_NOTIFICATIONS.has(method) || (method === 'initialize' && this.initializeUnanswered())) {
        lines.push(line);
        continue;
      }
      const id = replayId(swallow.size + 1);
      swallow.add(keyOf(id));
      lines.push(JSON.stringify({ ...(frameOf(line) as object), id }));
    }
    return { lines, swallow };
  }
}
