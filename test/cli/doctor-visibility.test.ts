import { afterEach, describe, expect, it } from 'vitest';
import { visibilityChecks } from '../../src/cli/doctor-visibility.js';
import { loadConfig } from '../../src/core/config.js';
import { removeTemps, tempDir, writeFiles } from '../helpers/engine.js';

afterEach(removeTemps);

const loaded = (toml: string) => {
  const ws = tempDir('meshlens-doctor-visibility-');
  writeFiles(ws, { 'meshlens.toml': toml });
  return loadConfig({ cwd: ws, env: {} });
};

describe('doctor: [server.visibility]', () => {
  it('says nothing without a table', () => {
    expect(visibilityChecks(loaded('[workspace]\nroots = ["."]\n'))).toEqual([]);
  });

  it('sums up a sound table, saying that other roles see nothing', () => {
    const checks = visibilityChecks(
      loaded(
        '[server.visibility.roles]\nreader = ["code", "docs.search"]\nadmin = ["*"]\n\n[server.visibility.tenants.acme]\nreader = ["docs"]\n',
      ),
    );
    expect(checks).toEqual([
      {
        name: 'visibility',
        status: 'ok',
        message:
          'tiers for role(s) reader, admin; overrides for tenant(s) acme; keys of any other role see no tools',
      },
    ]);
  });

  it('names each rule serve would refuse', () => {
    const checks = visibilityChecks(loaded('[server.visibility.roles]\nreader = ["docs.serch", "grahp"]\n'));
    expect(checks.map((c) => [c.status, c.message.split(' (')[0]])).toEqual([
      ['error', '[server.visibility.roles] reader: unknown mode `docs.serch` — did you mean `docs.search`?'],
      ['error', '[server.visibility.roles] reader: unknown domain `grahp` — did you mean `graph`?'],
    ]);
  });
});
