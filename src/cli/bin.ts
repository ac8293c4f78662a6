import { z } from 'zod';
import { useCompileCache } from './compile-cache.js';
import { daemonArgsOf, serveArgsOf } from './serve-args.js';

// Both before anything else is loaded: the compile cache then covers every module that follows (Node 22+),
// and zod builds no parser code. By default zod compiles a parser per object schema (`new Function`) on its
// first parse; a CLI run or a server session parses each schema a handful of times, so the compiling costs
// more than it saves (about a third of the zod work before `serve` answers `initialize`). The flag is read
// when a schema is built, so the modules that build schemas are imported only after it is set.
useCompileCache();
z.config({ jitless: true });

// `serve` is what MCP clients spawn, and its boot time is what they wait for: a plain serve command line
// skips the full CLI (commander, the generated operation commands); everything else goes through it.
const serve = serveArgsOf(process.argv);
const daemon = serve ? undefined : daemonArgsOf(process.argv);
if (daemon) {
  // The workspace daemon that `serve` starts (hidden): it runs until idle or signalled.
  const { runDaemon } = await import('./daemon-command.js');
  process.exitCode = await runDaemon(daemon);
} else if (serve) {
  const { runServe } = await import('./serve-fast.js');
  const status = await runServe(serve);
  // A running server stays alive until stdin closes; only a failure to start sets the exit status.
  if (status !== 0) process.exitCode = status;
} else {
  const { EXIT, main } = await import('./main.js');
  const status = await main();
  // `serve` keeps the process alive until stdin closes; every other command is finished here.
  if (status !== EXIT.ok || !process.argv.includes('serve')) process.exitCode = status;
}
