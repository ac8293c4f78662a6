import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareProtoTexts } from '../../src/ops/contracts/wire-check/compare-proto-texts.js';
import type { WireFinding } from '../../src/ops/contracts/wire-check/findings.js';
import { buildFixture, callTool, rpc, type Fixture } from './grpc-fixture.js';
import { git } from '../helpers/git.js';

const proto = (body: string, pkg = 'shop.test.v1'): string =>
  `syntax = "proto3";\n\npackage ${pkg};\n\n${body.trim()}\n`;

interface Case {
  readonly base: string;
  readonly head: string;
}

/** One file per case; each base version is its own commit, each head version is left in the working tree. */
const CASES: Record<string, Case> = {
  number_reused: {
    base: proto('message Order {\n  string id = 1;\n  int32 quantity = 2;\n}'),
    head: proto('message Order {\n  string id = 1;\n  string note = 2;\n}'),
  },
  names_swapped: {
    base: proto('message Order {\n  string id = 1;\n  string name = 2;\n}'),
    head: proto('message Order {\n  string name = 1;\n  string id = 2;\n}'),
  },
  reserved_reused: {
    base: proto('message Order {\n  reserved 3, 10 to max;\n  reserved "legacy";\n  string id = 1;\n}'),
    head: proto('message Order {\n  string id = 1;\n  int64 created_at = 3;\n}'),
  },
  type_changed: {
    base: proto('message Money {\n  int64 units = 1;\n}'),
    head: proto('message Money {\n  string units = 1;\n}'),
  },
  cardinality_changed: {
    base: proto('message Batch {\n  int32 size = 1;\n  string tag = 2;\n}'),
    head: proto('message Batch {\n  repeated int32 size = 1;\n  repeated string tag = 2;\n}'),
  },
  field_deleted: {
    base: proto('message Order {\n  string id = 1;\n  string coupon = 2;\n}'),
    head: proto('message Order {\n  string id = 1;\n}'),
  },
  enum_renumbered: {
    base: proto(
      'enum EventState {\n  EVENT_STATE_UNSPECIFIED = 0;\n  EVENT_STATE_ACTIVE = 1;\n  EVENT_STATE_CANCELLED = 3;\n}',
    ),
    head: proto(
      'enum EventState {\n  EVENT_STATE_UNSPECIFIED = 0;\n  EVENT_STATE_ACTIVE = 1;\n  EVENT_STATE_CANCELLED = 5;\n}',
    ),
  },
  enum_value_deleted: {
    base: proto('enum Color {\n  COLOR_UNSPECIFIED = 0;\n  COLOR_RED = 1;\n  COLOR_BLUE = 2;\n}'),
    head: proto('enum Color {\n  COLOR_UNSPECIFIED = 0;\n  COLOR_RED = 1;\n}'),
  },
  compatible: {
    base: proto(
      'enum Color {\n  COLOR_UNSPECIFIED = 0;\n  COLOR_RED = 1;\n}\n\nmessage Order {\n  string id = 1;\n  string coupon = 2;\n  map<string, string> labels = 3;\n}',
    ),
    head: proto(
      'enum Color {\n  COLOR_UNSPECIFIED = 0;\n  COLOR_RED = 1;\n  COLOR_GREEN = 2;\n}\n\nmessage Order {\n  reserved 2;\n  reserved "coupon";\n  string id = 1;\n  repeated LabelsEntry labels = 3;\n  string channel = 4;\n  message LabelsEntry {\n    string key = 1;\n    string value = 2;\n  }\n}',
    ),
  },
  renamed: {
    base: proto(
      'enum Color {\n  COLOR_UNSPECIFIED = 0;\n  COLOR_RED = 1;\n}\n\nmessage Order {\n  string id = 1;\n  string customer = 2;\n}',
    ),
    head: proto(
      'enum Color {\n  COLOR_UNSPECIFIED = 0;\n  COLOR_CRIMSON = 1;\n}\n\nmessage Order {\n  string id = 1;\n  string customer_id = 2;\n}',
    ),
  },
  named: {
    base: proto(
      'service OrderService {\n  rpc Place(PlaceRequest) returns (PlaceResponse);\n}\n\nmessage PlaceRequest {\n  string id = 1;\n}\n\nmessage PlaceResponse {\n  string id = 1;\n}',
    ),
    head: proto(
      'service OrderService {\n  rpc Place(PlaceRequest) returns (PlaceResponse);\n}\n\nmessage PlaceRequest {\n  int32 id = 1;\n}\n\nmessage PlaceResponse {\n  string id = 1;\n}',
    ),
  },
};

let workspace: string;
let repo: string;
let fixture: Fixture;
let client: Client;
let headCommit: string;

const fileOf = (name: string): string => `repo/cases/${name}.proto`;

beforeAll(async () => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-wire-'));
  repo = path.join(workspace, 'repo');
  mkdirSync(path.join(repo, 'cases'), { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, 'README.md'), 'test repository\n');
  git(repo, 'add', '--', 'README.md');
  git(repo, 'commit', '-q', '-m', 'initial');
  for (const [name, { base }] of Object.entries(CASES)) {
    writeFileSync(path.join(repo, 'cases', `${name}.proto`), base);
    git(repo, 'add', '--', `cases/${name}.proto`);
    git(repo, 'commit', '-q', '-m', name);
  }
  headCommit = git(repo, 'rev-parse', 'HEAD');
  for (const [name, { head }] of Object.entries(CASES))
    writeFileSync(path.join(repo, 'cases', `${name}.proto`), head);
  writeFileSync(path.join(repo, 'cases', 'brand_new.proto'), proto('message Fresh {\n  string id = 1;\n}'));

  // The snapshot knows the service of `named.proto`, so a name target reaches its wire check too.
  fixture = buildFixture(
    workspace,
    ['repo'],
    [
      {
        root: 'repo',
        path: 'cases/named.proto',
        language: 'proto',
        package: 'shop.test.v1',
        protoServices: [
          {
            package: 'shop.test.v1',
            name: 'OrderService',
            line: 5,
            methods: [rpc('Place', 6, 'PlaceRequest', 'PlaceResponse')],
          },
        ],
      },
    ],
  );
  client = await fixture.client();
});

afterAll(async () => {
  await client?.close();
  rmSync(workspace, { recursive: true, force: true });
});

async function findingsOf(
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{ text: string; findings: { severity: string; rule: string; line: number | null }[] }> {
  const text = await callTool(client, { proto: fileOf(name), ...extra });
  expect(text.isError, text.text).toBe(false);
  const json = await fixture.call({ proto: fileOf(name), ...extra });
  const [check] = json.json.wire_checks as {
    findings?: { severity: string; rule: string; line: number | null }[];
  }[];
  return { text: text.text, findings: check?.findings ?? [] };
}

const short = (): string => headCommit.slice(0, 12);

describe('wire-format check against a git base', () => {
  it('flags a field number reused for another field', async () => {
    const { text, findings } = await findingsOf('number_reused');
    expect(text).toContain(`### Wire-format check: \`${fileOf('number_reused')}\``);
    expect(text).toContain(`1 wire-format breaking change against \`main\` (merge base ${short()}):`);
    expect(text).toContain(
      `- **WIRE_FORMAT_BREAKING_CHANGE** \`shop.test.v1.Order.note\` at \`${fileOf('number_reused')}:7\`: field number 2 reused for another field: \`quantity\` int32 → \`note\` string`,
    );
    expect(findings.map((f) => f.rule)).toEqual(['field_number_reused']);
  });

  it('flags names swapped between numbers even when the types agree', async () => {
    const { text, findings } = await findingsOf('names_swapped');
    expect(findings.map((f) => [f.severity, f.rule])).toEqual([
      ['breaking', 'field_number_reused'],
      ['breaking', 'field_number_reused'],
    ]);
    expect(text).toContain(
      'field number 1 reused for another field: `id` string → `name` string (names moved between numbers)',
    );
  });

  it('flags a number reserved in the base used again', async () => {
    const { text, findings } = await findingsOf('reserved_reused');
    expect(findings.map((f) => f.rule)).toEqual(['reserved_number_reused']);
    expect(text).toContain('field `created_at = 3` reuses a number reserved in the base');
  });

  it('flags an incompatible type change', async () => {
    const { text, findings } = await findingsOf('type_changed');
    expect(findings.map((f) => f.rule)).toEqual(['type_changed']);
    expect(text).toContain('field `units = 1`: incompatible type change `int64` → `string`');
  });

  it('flags singular → repeated for a packed numeric, accepts it for string', async () => {
    const { text, findings } = await findingsOf('cardinality_changed');
    expect(findings.map((f) => [f.severity, f.rule])).toEqual([['breaking', 'cardinality_changed']]);
    expect(text).toContain('field `size = 1`: singular → repeated');
    expect(text).not.toContain('`tag = 2`');
  });

  it('flags a field deleted without reserved, naming the fix', async () => {
    const { text, findings } = await findingsOf('field_deleted');
    expect(findings).toEqual([
      expect.objectContaining({ severity: 'breaking', rule: 'field_deleted', line: 7 }),
    ]);
    expect(text).toContain(
      `- **WIRE_FORMAT_BREAKING_CHANGE** \`shop.test.v1.Order.coupon\` at \`${fileOf('field_deleted')}\` (base line 7): field \`coupon = 2\` deleted without \`reserved\`; add \`reserved 2;\` and \`reserved "coupon";\``,
    );
  });

  it('flags an enum value renumbered 3 → 5', async () => {
    const { text, findings } = await findingsOf('enum_renumbered');
    expect(findings.map((f) => [f.severity, f.rule])).toEqual([['breaking', 'enum_value_renumbered']]);
    expect(text).toContain('enum value `EVENT_STATE_CANCELLED` renumbered 3 → 5');
  });

  it('flags an enum value deleted without reserved', async () => {
    const { text, findings } = await findingsOf('enum_value_deleted');
    expect(findings.map((f) => f.rule)).toEqual(['enum_value_deleted']);
    expect(text).toContain('enum value `COLOR_BLUE = 2` deleted without `reserved`');
  });

  it('stays silent on compatible edits: added field and enum value, reserved deletion, map ↔ entry message', async () => {
    const { text, findings } = await findingsOf('compatible');
    expect(findings).toEqual([]);
    expect(text).toContain(`No wire-format break against \`main\` (merge base ${short()}).`);
    expect(text).not.toContain('WIRE_FORMAT_BREAKING_CHANGE');
  });

  it('reports renames as warnings only', async () => {
    const { text, findings } = await findingsOf('renamed');
    expect(findings.map((f) => [f.severity, f.rule])).toEqual([
      ['warning', 'enum_value_renamed'],
      ['warning', 'field_renamed'],
    ]);
    expect(text).toContain(`No wire-format break against \`main\` (merge base ${short()}); 2 warnings:`);
    expect(text).toContain('- warning `shop.test.v1.Order.customer_id`');
    expect(text).not.toContain('WIRE_FORMAT_BREAKING_CHANGE');
  });

  it('says a file absent from the base is new, with nothing to compare', async () => {
    const { text, findings } = await findingsOf('brand_new');
    expect(findings).toEqual([]);
    expect(text).toContain(
      `New file, nothing to compare: \`${fileOf('brand_new')}\` does not exist at \`main\` (merge base ${short()}).`,
    );
  });

  it('runs for a name target whose service is declared in a .proto inside a repository', async () => {
    const { text, isError } = await callTool(client, { target: 'OrderService.Place' });
    expect(isError).toBe(false);
    expect(text).toContain('### `shop.test.v1.OrderService/Place`');
    expect(text).toContain(`1 wire-format breaking change against \`main\` (merge base ${short()}):`);
    expect(text).toContain('field `id = 1`: incompatible type change `string` → `int32`');
  });

  it('names an explicit base and its commit', async () => {
    const { text } = await findingsOf('type_changed', { base: 'main' });
    expect(text).toContain(`1 wire-format breaking change against \`main\` (${short()}):`);
    const older = await findingsOf('type_changed', { base: headCommit.slice(0, 10) });
    expect(older.text).toContain(`against \`${headCommit.slice(0, 10)}\` (${short()})`);
  });

  it('an explicit base that does not exist is a tool error', async () => {
    expect(await callTool(client, { proto: fileOf('type_changed'), base: 'no-such-branch' })).toEqual({
      isError: true,
      text: `Wire check of \`${fileOf('type_changed')}\` against \`no-such-branch\` failed: "no-such-branch" is not a commit in this repository.`,
    });
  });

  it('validates base before running git, naming the rule', async () => {
    const cases: [string, string][] = [
      ['-x', '`base` must not start with "-" (git would read it as an option), got "-x".'],
      [
        '--output=/tmp/x',
        '`base` must not start with "-" (git would read it as an option), got "--output=/tmp/x".',
      ],
      ['a:b', '`base` must not contain ":" (name a revision, not "revision:path"), got "a:b".'],
      ['main cases', '`base` must not contain whitespace or control characters, got "main cases".'],
      ['main\u0007', '`base` must not contain whitespace or control characters, got "main\\u0007".'],
      [
        '',
        '`base` is empty: name a git revision such as "main", "origin/main", a tag or a commit SHA, or omit `base` for the default merge base.',
      ],
      ['x'.repeat(257), '`base` must be at most 256 bytes, got 257 bytes.'],
    ];
    for (const [base, message] of cases) {
      expect(await callTool(client, { proto: fileOf('type_changed'), base }), JSON.stringify(base)).toEqual({
        isError: true,
        text: message,
      });
    }
  });

  it('ignores repository-redirect variables in its own environment', async () => {
    // Another repository where the same path holds something else entirely.
    const other = path.join(workspace, 'other');
    mkdirSync(path.join(other, 'cases'), { recursive: true });
    git(other, 'init', '-q', '-b', 'main');
    writeFileSync(
      path.join(other, 'cases', 'compatible.proto'),
      proto('message Unrelated {\n  bytes blob = 1;\n}', 'elsewhere.v1'),
    );
    git(other, 'add', '--', 'cases/compatible.proto');
    git(other, 'commit', '-q', '-m', 'other');
    const saved = Object.fromEntries(
      ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE'].map((k) => [k, process.env[k]]),
    );
    process.env.GIT_DIR = path.join(other, '.git');
    process.env.GIT_WORK_TREE = other;
    process.env.GIT_INDEX_FILE = path.join(other, '.git', 'index');
    try {
      const { text, findings } = await findingsOf('compatible');
      expect(findings).toEqual([]);
      expect(text).toContain(`No wire-format break against \`main\` (merge base ${short()}).`);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it('compares with HEAD, never HEAD~1, when no default ref exists', async () => {
    const trunk = path.join(workspace, 'repo', 'trunk');
    mkdirSync(trunk, { recursive: true });
    git(trunk, 'init', '-q', '-b', 'trunk');
    writeFileSync(path.join(trunk, 'a.proto'), proto('message A {\n  string id = 1;\n}'));
    git(trunk, 'add', '--', 'a.proto');
    git(trunk, 'commit', '-q', '-m', 'one');
    writeFileSync(path.join(trunk, 'a.proto'), proto('message A {\n  int32 id = 1;\n}'));
    git(trunk, 'add', '--', 'a.proto');
    git(trunk, 'commit', '-q', '-m', 'two');
    const head = git(trunk, 'rev-parse', 'HEAD');
    const { text, isError } = await callTool(client, { proto: 'repo/trunk/a.proto' });
    expect(isError).toBe(false);
    expect(text).toContain(`No wire-format break against \`HEAD\` (${head.slice(0, 12)}).`);
  });

  it('without git on PATH: skipped with the default base, a tool error with an explicit one', async () => {
    const saved = process.env.PATH;
    process.env.PATH = path.join(workspace, 'no-binaries-here');
    try {
      const implicit = await callTool(client, { proto: fileOf('type_changed') });
      expect(implicit.isError).toBe(false);
      expect(implicit.text).toContain(
        `Wire check skipped for \`${fileOf('type_changed')}\`: git is not installed or not on PATH.`,
      );
      expect(await callTool(client, { proto: fileOf('type_changed'), base: 'main' })).toEqual({
        isError: true,
        text: `Wire check of \`${fileOf('type_changed')}\` against \`main\` failed: git is not installed or not on PATH.`,
      });
    } finally {
      process.env.PATH = saved;
    }
  });

  it('without a repository: skipped with the default base, a tool error with an explicit one', async () => {
    const loose = mkdtempSync(path.join(os.tmpdir(), 'meshlens-norepo-'));
    try {
      const looseFixture = buildFixture(
        loose,
        ['svc'],
        [
          {
            root: 'svc',
            path: 'x.proto',
            language: 'proto',
            content: proto('message X {\n  string id = 1;\n}'),
          },
        ],
      );
      const implicit = await looseFixture.call({ proto: 'svc/x.proto' });
      expect(implicit.isError).toBe(false);
      expect(implicit.text).toContain(
        'Wire check skipped for `svc/x.proto`: the file is not inside a git repository.',
      );
      const explicit = await looseFixture.call({ proto: 'svc/x.proto', base: 'main' });
      expect(explicit.isError).toBe(true);
      expect(explicit.text).toBe(
        'Wire check of `svc/x.proto` against `main` failed: the file is not inside a git repository.',
      );
    } finally {
      rmSync(loose, { recursive: true, force: true });
    }
  });
});

describe('wire-format comparison rules', () => {
  const rules = (base: string, head: string): string[] =>
    compareProtoTexts(proto(base), proto(head)).map(
      (f: WireFinding) => `${f.severity}:${f.rule}:${f.element}`,
    );

  it('walks nested messages and enums', () => {
    expect(
      rules(
        'message Outer {\n  message Inner {\n    string a = 1;\n    enum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; }\n  }\n  Inner inner = 1;\n}',
        'message Outer {\n  message Inner {\n    enum Kind { KIND_UNSPECIFIED = 0; }\n  }\n  Inner inner = 1;\n}',
      ),
    ).toEqual([
      'breaking:field_deleted:shop.test.v1.Outer.Inner.a',
      'breaking:enum_value_deleted:shop.test.v1.Outer.Inner.Kind.KIND_A',
    ]);
  });

  it('accepts a field moved alone into a new oneof, flags one moved into an existing oneof', () => {
    expect(
      rules('message M {\n  string a = 1;\n}', 'message M {\n  oneof choice {\n    string a = 1;\n  }\n}'),
    ).toEqual([]);
    expect(
      rules(
        'message M {\n  string a = 1;\n  oneof choice {\n    string b = 2;\n  }\n}',
        'message M {\n  oneof choice {\n    string a = 1;\n    string b = 2;\n  }\n}',
      ),
    ).toEqual(['breaking:oneof_changed:shop.test.v1.M.a']);
  });

  it('treats proto3 optional as singular', () => {
    expect(rules('message M {\n  string a = 1;\n}', 'message M {\n  optional string a = 1;\n}')).toEqual([]);
  });

  it('compares map key and value types, and map ↔ entry message both ways', () => {
    expect(
      rules('message M {\n  map<string, int32> m = 1;\n}', 'message M {\n  map<string, string> m = 1;\n}'),
    ).toEqual(['breaking:type_changed:shop.test.v1.M.m']);
    expect(
      rules(
        'message M {\n  repeated E m = 1;\n  message E {\n    string key = 1;\n    int64 value = 2;\n  }\n}',
        'message M {\n  map<string, int64> m = 1;\n  message E {\n    string key = 1;\n    int64 value = 2;\n  }\n}',
      ),
    ).toEqual([]);
    expect(rules('message M {\n  map<string, string> m = 1;\n}', 'message M {\n  string m = 1;\n}')).toEqual([
      'breaking:cardinality_changed:shop.test.v1.M.m',
    ]);
  });

  it('handles negative enum numbers, reserved ranges and allow_alias', () => {
    expect(rules('enum E {\n  E_ZERO = 0;\n  E_NEG = -2;\n}', 'enum E {\n  E_ZERO = 0;\n}')).toEqual([
      'breaking:enum_value_deleted:shop.test.v1.E.E_NEG',
    ]);
    expect(
      rules('enum E {\n  E_ZERO = 0;\n  E_NEG = -2;\n}', 'enum E {\n  reserved -5 to -1;\n  E_ZERO = 0;\n}'),
    ).toEqual([]);
    expect(
      rules('enum E {\n  reserved 4 to max;\n  E_ZERO = 0;\n}', 'enum E {\n  E_ZERO = 0;\n  E_BIG = 9;\n}'),
    ).toEqual(['breaking:enum_reserved_number_reused:shop.test.v1.E.E_BIG']);
    expect(
      rules(
        'enum E {\n  option allow_alias = true;\n  E_ZERO = 0;\n  E_ON = 1;\n  E_RUNNING = 1;\n}',
        'enum E {\n  E_ZERO = 0;\n  E_ON = 1;\n}',
      ),
    ).toEqual(['warning:enum_value_renamed:shop.test.v1.E.E_RUNNING']);
    expect(
      rules(
        'enum E {\n  E_ZERO = 0;\n  E_A = 1;\n  E_B = 2;\n}',
        'enum E {\n  E_ZERO = 0;\n  E_B = 1;\n  E_A = 2;\n}',
      ),
    ).toEqual([
      'breaking:enum_number_reused:shop.test.v1.E.E_B',
      'breaking:enum_number_reused:shop.test.v1.E.E_A',
    ]);
  });

  it('accepts a deletion reserved by range, `to max` or name', () => {
    expect(
      rules(
        'message M {\n  string a = 1;\n  string b = 7;\n}',
        'message M {\n  reserved 5 to 9;\n  string a = 1;\n}',
      ),
    ).toEqual([]);
    expect(
      rules(
        'message M {\n  string a = 1;\n  string b = 700;\n}',
        'message M {\n  reserved 100 to max;\n  string a = 1;\n}',
      ),
    ).toEqual([]);
    expect(
      rules(
        'message M {\n  string a = 1;\n  string b = 2;\n}',
        'message M {\n  reserved "b";\n  string a = 1;\n}',
      ),
    ).toEqual([]);
  });

  it('reports removed messages and enums as warnings, removed rpcs and services as breaking', () => {
    expect(
      rules(
        'message A {\n  string id = 1;\n}\nenum S {\n  S_ZERO = 0;\n}\nmessage B {\n  string id = 1;\n}',
        'message B {\n  string id = 1;\n}',
      ),
    ).toEqual(['warning:type_removed:shop.test.v1.A', 'warning:type_removed:shop.test.v1.S']);
    expect(
      rules(
        'service S {\n  rpc A(B) returns (B);\n  rpc C(B) returns (stream B);\n}\nmessage B {\n  string id = 1;\n}',
        'service S {\n  rpc C(B) returns (B);\n}\nmessage B {\n  string id = 1;\n}',
      ),
    ).toEqual(['breaking:rpc_removed:shop.test.v1.S/A', 'breaking:rpc_changed:shop.test.v1.S/C']);
  });

  it('only warns on a change involving a type not declared in the file', () => {
    expect(
      rules(
        'message M {\n  google.protobuf.Timestamp at = 1;\n}',
        'message M {\n  google.type.DateTime at = 1;\n}',
      ),
    ).toEqual(['warning:external_type_changed:shop.test.v1.M.at']);
  });

  it('accepts unpacked numerics ↔ singular, not packed ones', () => {
    const p2 = (body: string) => `syntax = "proto2";\npackage p;\n${body}\n`;
    const found = (a: string, b: string) => compareProtoTexts(p2(a), p2(b)).map((f) => f.rule);
    expect(found('message M { optional int32 a = 1; }', 'message M { repeated int32 a = 1; }')).toEqual([]);
    expect(
      found('message M { optional int32 a = 1; }', 'message M { repeated int32 a = 1 [packed = true]; }'),
    ).toEqual(['cardinality_changed']);
  });

  it('names the version that does not parse', () => {
    expect(() => compareProtoTexts(proto('message M {\n  string a = 1;\n}'), 'message {')).toThrow(
      /^the working-tree version does not parse: /,
    );
  });
});
