/**
 * The service model read from fixture workspaces (test/fixtures/services/*): every entry with its kind,
 * names, environment and evidence (each with where it was learnt) must equal the reviewed expectation in
 * test/fixtures/services-expected/<name>.json. `UPDATE_SERVICES=1` rewrites the expectations (review the diff).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { interpolate, parseEnvFile } from '../../src/index/services/env-file.js';
import { buildServiceModel } from '../../src/index/services/model.js';
import type { Learnt } from '../../src/index/services/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SERVICE_FIXTURES = path.resolve(here, '../fixtures/services');
const EXPECTED = path.resolve(here, '../fixtures/services-expected');
const CASES = [
  'libs-and-services',
  'maven-modules',
  'docker-only',
  'grouped',
  'go-cmd',
  'nested-units',
  'cmake-and-mounts',
  'dapr-readme',
  'cargo-bins',
];

const where = (l: Learnt): string => (l.line > 0 ? `${l.file}:${l.line}` : l.file);

function summary(name: string) {
  const { model } = buildServiceModel(path.join(SERVICE_FIXTURES, name));
  return {
    entries: model.entries.map((e) => ({
      folder: e.folder,
      kind: e.kind,
      names: e.names.map((n) => `${n.name} ← ${n.from.how} (${where(n.from)})`),
      env: e.env.map((v) => `${v.name}=${v.value} ← ${where(v.from)}`),
      evidence: e.evidence.map((l) => `${l.how} (${where(l)})`),
    })),
    uncovered: model.uncovered,
  };
}

describe('service model on fixture workspaces', () => {
  test.each(CASES)('%s', (name) => {
    const file = path.join(EXPECTED, `${name}.json`);
    const actual = summary(name);
    if (process.env.UPDATE_SERVICES) writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
    expect(existsSync(file)).toBe(true);
    expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  });

  test('the same tree always gives the same model', () => {
    expect(summary('libs-and-services')).toEqual(summary('libs-and-services'));
  });
});

describe('compose environment', () => {
  const vars = new Map([
    ['HOST', 'orders'],
    ['EMPTY', ''],
  ]);
  test('interpolation follows compose: defaults, unset-only defaults, $$ and unknown variables kept', () => {
    expect(interpolate('http://${HOST}:${PORT:-8080}/$$x', vars)).toBe('http://orders:8080/$x');
    expect(interpolate('${EMPTY:-a}|${EMPTY-b}|${MISSING}|$HOST', vars)).toBe('a||${MISSING}|orders');
  });
  test('dotenv lines: quotes stripped, comments skipped, credential-named variables never kept', () => {
    expect(
      parseEnvFile('# c\nA="x y"\nexport B=2 # note\nDB_PASSWORD=p\nAPI_KEY=k\nAUTH_URL=http://auth\n'),
    ).toEqual([
      { name: 'A', value: 'x y', line: 2 },
      { name: 'B', value: '2', line: 3 },
      { name: 'AUTH_URL', value: 'http://auth', line: 6 },
    ]);
  });
});
