import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempEnv } from '../helpers/cli.js';
import { git } from '../helpers/git.js';

const ORDER = (fields: string): string =>
  `syntax = "proto3";\n\npackage shop.v1;\n\nmessage Order {\n${fields}\n}\n`;

describe('exit codes for scripts and CI', () => {
  it('a wire check that finds a breaking change exits 1; a compatible change exits 0', () => {
    const ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-exit-wire-')));
    mkdirSync(path.join(ws, 'proto'));
    writeFileSync(path.join(ws, 'meshlens.toml'), '[workspace]\nroots = ["proto"]\n');
    writeFileSync(path.join(ws, 'proto', 'order.proto'), ORDER('  string id = 1;\n  int32 quantity = 2;'));
    git(ws, 'init', '-q');
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'base');
    const env = tempEnv();
    const check = () =>
      runCli(['--workspace', ws, 'contracts', 'grpc', '--proto', 'proto/order.proto', '--base', 'HEAD'], {
        env,
      });

    writeFileSync(
      path.join(ws, 'proto', 'order.proto'),
      ORDER('  string id = 1;\n  int32 quantity = 2;\n  string note = 3;'),
    );
    const compatible = check();
    expect(compatible.stderr).toBe('');
    expect(compatible.status).toBe(0);

    writeFileSync(path.join(ws, 'proto', 'order.proto'), ORDER('  string id = 1;\n  string note = 2;'));
    const breaking = check();
    expect(breaking.status).toBe(1);
    expect(breaking.stdout).toContain('wire-format breaking change');
  });

  it('`index` whose roots match no folder fails with the reason and the fix', () => {
    const ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-exit-noroots-')));
    writeFileSync(path.join(ws, 'meshlens.toml'), '[workspace]\nroots = ["services/*"]\n');
    const result = runCli(['--workspace', ws, 'index'], { env: tempEnv() });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `meshlens: No root to index: [workspace] roots (\`services/*\`) match no folder under ${ws}. ` +
        'Fix the patterns in meshlens.toml, or run `meshlens init --auto --force` to propose roots from the layout.\n',
    );
  });
});
