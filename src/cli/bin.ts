import { useCompileCache } from './compile-cache.js';
import { daemonArgsOf, daemonWanted, serveArgsOf, type ServeArgs } from './serve-args.js';

// Before anything else is loaded: the compile cache then covers every module that follows (Node 22+).
useCompileCache();

// `serve` is what MCP clients spawn, and its boot time is what they wait for: a plain serve command line
// skips the full CLI (commander, the generated operation commands); everything else goes through it. Over
// stdio it first tries to attach to the workspace daemon, as a thin pipe that loads neither zod nor the
// server; it serves in-process only when that is asked for or fails. An operation command likewise first
// asks the workspace daemon, which holds the index loaded, and loads the full CLI only when it must.
const serve = serveArgsOf(process.argv);
const daemon = serve ? undefined : daemonArgsOf(process.argv);

if (daemon || !(await answeredByDaemon(serve))) {
  // Before any module that builds zod schemas (see zod-jitless.ts).
  await import('./zod-jitless.js');
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
}

/** True when the workspace daemon served the session or answered the command: nothing is left to do here. */
async function answeredByDaemon(serveArgs: ServeArgs | undefined): Promise<boolean> {
  if (serveArgs) {
    if (!daemonWanted(serveArgs)) return false;
    const { attachToDaemon } = await import('./daemon-clients.js');
    return (await attachToDaemon(serveArgs)).kind === 'ended';
  }
  // Whether the command line is one a daemon may answer is read there too: the entry stays small for `serve`.
  const { answerThroughDaemon } = await import('./daemon-clients.js');
  const answered = await answerThroughDaemon(process.argv);
  if (answered.kind !== 'answered') return false;
  process.exitCode = answered.status;
  return true;
}
