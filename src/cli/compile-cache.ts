import module from 'node:module';

type CompileCacheApi = { enableCompileCache?: () => unknown; flushCompileCache?: () => unknown };

/**
 * Node 22.1+ can keep the compiled code of the modules it loads on disk, so that the next start skips
 * compiling them: the chunks loaded after the handshake (the full CLI, the index engine) start faster.
 * Older Node has no such function, and a cache that cannot be written must never stop the CLI.
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as Node documents.
 */
export function useCompileCache(): void {
  try {
    (module as CompileCacheApi).enableCompileCache?.();
  } catch {
    // No cache: the same code, compiled as before.
  }
}

/**
 * Writes what was compiled so far to the cache (Node 22.10+). Node writes it when the process exits
 * normally; a server that its client kills never does, so `serve` writes it once its code is loaded.
 */
export function flushCompileCache(): void {
  try {
    (module as CompileCacheApi).flushCompileCache?.();
  } catch {
    // Not written: the next start compiles again.
  }
}
