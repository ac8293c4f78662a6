import { useCompileCache } from './compile-cache.js';
import { runServe, serveArgsOf } from './serve-fast.js';

useCompileCache();

// `serve` is what MCP clients spawn, and its boot time is what they wait for: a plain serve command line
// skips the full CLI (commander, the generated operation commands); everything else goes through it.
const serve = serveArgsOf(process.argv);
if (serve) {
  const status = await runServe(serve);
  // A running server stays alive until stdin closes; only a failure to start sets the exit status.
  if (status !== 0) process.exitCode = status;
} else {
  const { EXIT, main } = await import('./main.js');
  const status = await main();
  // `serve` keeps the process alive until stdin closes; every other command is finished here.
  if (status !== EXIT.ok || !process.argv.includes('serve')) process.exitCode = status;
}
