import type { Registry } from '../core/registry.js';

/**
 * The registry a server serves. `serve` composes it after answering `initialize` (the operations, their zod
 * schemas and the policies are a third of the code a boot would otherwise compile first), and a config
 * reload may replace it: the server then tells clients which lists changed.
 */
export class ServedRegistry {
  private registry: Promise<Registry> | undefined;
  private readonly compose: () => Registry | Promise<Registry>;
  private readonly listeners: ((before: Registry, after: Registry) => void)[] = [];

  /** `compose` runs once, on the first `current()`. */
  constructor(compose: () => Registry | Promise<Registry>) {
    this.compose = compose;
  }

  static of(registry: Registry): ServedRegistry {
    return new ServedRegistry(() => registry);
  }

  /** The registry now, composed on the first call. */
  current(): Promise<Registry> {
    this.registry ??= Promise.resolve().then(this.compose);
    return this.registry;
  }

  /**
   * Serves what `change` makes of the current registry from now on, and tells every listener when that is
   * another registry. Replacements apply in the order asked; one that throws leaves the registry as it was.
   */
  async replace(change: (current: Registry) => Registry): Promise<void> {
    const previous = this.current();
    const next = previous.then(change);
    this.registry = next.catch(() => previous);
    const [before, after] = await Promise.all([previous, next]);
    if (after !== before) for (const listener of this.listeners) listener(before, after);
  }

  /** Returns what stops the listening (an HTTP session's server ends long before the registry does). */
  onReplace(listener: (before: Registry, after: Registry) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }
}
