import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/core/operation.js';
import { fieldsOf } from '../../src/core/schema.js';
import { OPERATIONS } from '../../src/ops/catalog.js';
import { optionName } from '../../src/cli/operation-commands.js';
import { runCli } from '../helpers/cli.js';

/** Subcommand names listed under "Commands:" in commander's help. */
function commandsIn(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return section
    .split('\n')
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
}

describe('CLI parity with the registry', () => {
  it('every operation resolves `meshlens <domain> <mode> --help` and shows each of its fields', () => {
    for (const op of OPERATIONS) {
      const result = runCli([op.domain, op.mode, '--help']);
      expect(result.status, `${op.domain} ${op.mode}`).toBe(0);
      expect(result.stdout).toContain(`Usage: meshlens ${op.domain} ${op.mode}`);
      for (const field of fieldsOf(op)) expect(result.stdout).toContain(optionName(field.name));
      expect(result.stdout).toContain('--json');
    }
    // One CLI process per operation (36 and more): about 0.5 s each, several times that on a loaded machine.
  }, 120_000);

  it('the CLI offers no operation the registry lacks (bijection at operation level)', () => {
    const top = commandsIn(runCli(['--help']).stdout);
    const cliDomains = top.filter((name) => (DOMAINS as readonly string[]).includes(name));
    const registryDomains = [...new Set(OPERATIONS.map((op) => op.domain))];
    expect(cliDomains.sort()).toEqual(registryDomains.sort());
    const cliOperations = cliDomains.flatMap((domain) =>
      commandsIn(runCli([domain, '--help']).stdout).map((mode) => `${domain} ${mode}`),
    );
    expect(cliOperations.sort()).toEqual(OPERATIONS.map((op) => `${op.domain} ${op.mode}`).sort());
  });

  it('an unknown operation field gets the registry’s own message', () => {
    const result = runCli(['admin', 'rescan', '--pth', 'x']);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      '`admin` mode `rescan` has no field `pth`. Did you mean `path`? Accepted fields: `path`.',
    );
  });
});
