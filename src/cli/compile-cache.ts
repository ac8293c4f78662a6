import module from 'node:module';

/**
 * Node 22.1+ can keep the compiled code of the modules it loads on disk, so that the next start skips
 * compiling them: the chunks loaded after the handshake (the full CLI, the index engine) start faster.
 * Older Node has no such function, and a cache that cannot be written must never stop the CLI.
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as Node documents.
 */
export function useCompileCache(): void {
  const enable = (module as { enableCompileCache?: () => unknown }).enableCompileCache;
  try {
    enable?.();
  } catch {
    // No cache: the same code, compiled as before.
  }
}
