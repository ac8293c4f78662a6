/**
 * `meshlens daemon status|stop`: the workspace daemons that `serve` and the CLI's commands use. What they do
 * is in daemon-admin.ts, loaded only when one of them runs. (`meshlens daemon` itself, with no subcommand,
 * is the daemon, started by its clients: bin.ts runs it before this program is built.)
 */
import type { Command } from 'commander';
import type { GlobalOptions } from './global-options.js';
import { print as write } from './print.js';

export function addDaemonCommand(
  program: Command,
  { globals, io }: { readonly globals: GlobalOptions; readonly io: { readonly cwd: string } },
): void {
  const daemon = program
    .command('daemon')
    .description(
      "The workspace's background daemon (started by `serve` and by operation commands; exits when idle): status, stop.",
    );
  daemon
    .command('status')
    .description('Show the daemon serving this workspace and config: pid, version, socket and log file.')
    .action(async () => {
      const { daemonStatus } = await import('./daemon-admin.js');
      await daemonStatus({ globals, cwd: io.cwd, write });
    });
  daemon
    .command('stop')
    .description(
      'Stop the daemon serving this workspace and config (SIGTERM); attached `serve` clients start a new one.',
    )
    .action(async () => {
      const { daemonStop } = await import('./daemon-admin.js');
      await daemonStop({ globals, cwd: io.cwd, write });
    });
}
