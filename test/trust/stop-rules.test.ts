import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AuditRecord } from '../../src/trust/audit.js';
import { configSchema } from '../../src/core/config-schema.js';
import { createPolicyGovernance } from '../../src/trust/policy-governance.js';
import { defineOperation } from '../../src/core/operation.js';
import { Registry } from '../../src/core/registry.js';
import { anchoredSubject } from '../../src/trust/policy-anchors.js';
import { StopRules, type ReadGovernance } from '../../src/trust/stop-rules.js';
import { connectClient, textOf } from '../helpers/mcp.js';

const outline = defineOperation({
  domain: 'code',
  mode: 'outline',
  flatName: 'outline_file',
  title: 'Outline',
  description: 'Outlines a file, e.g. "deploy/app.yml". DO NOT USE to search (use nothing).',
  args: { path: z.string().min(1).describe('A file, e.g. "deploy/app.yml".') },
  output: z.looseObject({}),
  capabilities: {},
  subject: (args) => args.path,
  run: (args) => ({ data: { path: args.path }, markdown: `outline of ${args.path}`, filesRead: [args.path] }),
});

const touch = defineOperation({
  domain: 'admin',
  mode: 'touch',
  flatName: 'touch_file',
  title: 'Touch',
  description: 'Rewrites a file, e.g. "deploy/app.yml". DO NOT USE to read (use outline_file).',
  args: { path: z.string().min(1).describe('A file, e.g. "deploy/app.yml".') },
  output: z.looseObject({}),
  capabilities: { writes: true },
  subject: (args) => args.path,
  run: (args) => ({ data: { path: args.path }, markdown: `touched ${args.path}` }),
});

const MESSAGE = 'Deploy manifests are owned by the platform team; changes go through #platform.';
const RULES = { deploy: MESSAGE };

function setup(mode: ReadGovernance) {
  const records: AuditRecord[] = [];
  const registry = new Registry({
    operations: [outline, touch],
    services: undefined,
    audit: { record: (r) => records.push(r) },
    governance: new StopRules({ rules: RULES, readGovernance: mode, anchors: ['/ws'] }),
  });
  return { registry, records };
}

const EXPECTED_READ_REFUSAL = {
  status: 'GOVERNANCE_BLOCKED',
  policy: 'STOP_RULE:deploy',
  required_steps: ['Ask the user to confirm access to `deploy` with its owners', 'Follow the message below'],
  message_to_user: MESSAGE,
  agent_next_action: 'STOP_AND_REPORT_TO_USER',
};
const EXPECTED_WRITE_REFUSAL = {
  ...EXPECTED_READ_REFUSAL,
  required_steps: [
    'Ask the user to confirm the change to `deploy` with its owners',
    'Follow the message below',
  ],
};

/** The refusal as the agent reads it: the fenced JSON block of the tool result. */
function refusalIn(text: string): unknown {
  const block = /```json\n([\s\S]*?)\n```/.exec(text)?.[1];
  if (!block) throw new Error(`no JSON block in ${text}`);
  return JSON.parse(block);
}

describe('stop rules: segment matching', () => {
  const rules = new StopRules({
    rules: { deploy: 'd', 'services/billing': 'b', 'k8s/': 'k' },
    caseInsensitive: false,
  });
  it.each([
    ['/ws/deploy/x.yml', 'deploy'],
    ['deploy/x', 'deploy'],
    ['deploy', 'deploy'],
    ['/ws/services/billing/src/a.ts', 'services/billing'],
    ['services\\billing\\a.cs', 'services/billing'],
    ['/ws/k8s/prod.yml', 'k8s/'],
  ])('%s is guarded by %s', (subject, key) => {
    expect(rules.match(subject)?.key).toBe(key);
  });

  it.each([
    '/ws/deployment/x.yml',
    'redeploy/x',
    '/ws/deploy.yml',
    '/ws/services/billing-v2/a.ts',
    '/ws/billing/services/a.ts',
    'Deploy/x',
    '*',
  ])('%s is not guarded', (subject) => {
    expect(rules.match(subject)).toBeUndefined();
  });

  it('prefers the most specific rule when several match', () => {
    const nested = new StopRules({ rules: { services: 'all services', 'services/billing': 'billing only' } });
    expect(nested.match('/ws/services/billing/a.ts')).toEqual({
      key: 'services/billing',
      message: 'billing only',
    });
    expect(nested.match('/ws/services/orders/a.ts')).toEqual({ key: 'services', message: 'all services' });
  });

  it('ignores the folders above the workspace: a checkout under ~/deploy is not all guarded', () => {
    const anchored = new StopRules({ rules: RULES, anchors: ['/home/me/deploy/shop'] });
    expect(anchoredSubject('/home/me/deploy/shop/src/a.ts', ['/home/me/deploy/shop'])).toBe('src/a.ts');
    expect(anchored.match('/home/me/deploy/shop/src/a.ts')).toBeUndefined();
    expect(anchored.match('/home/me/deploy/shop/deploy/a.yml')?.key).toBe('deploy');
    // Outside every anchor the subject is matched as given.
    expect(anchored.match('/elsewhere/deploy/a.yml')?.key).toBe('deploy');
  });

  it('has no effect without rules', () => {
    const none = new StopRules({ rules: {}, readGovernance: 'enforce' });
    expect(none.evaluate(touch, '/ws/deploy/a.yml')).toEqual({ kind: 'allow' });
  });
});

describe('stop rules through the registry and a real MCP client', () => {
  const guarded = '/ws/deploy/app.yml';
  const unguarded = '/ws/deployment/app.yml';

  it('allow (the default): reads of a guarded path run, with no warning recorded', async () => {
    const { registry, records } = setup('allow');
    const client = await connectClient(registry, 'flat');
    for (const path of [guarded, unguarded]) {
      const result = await client.callTool({ name: 'outline_file', arguments: { path } });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe(`outline of ${path}`);
    }
    expect(records.map((r) => [r.status, r.warning])).toEqual([
      ['ok', undefined],
      ['ok', undefined],
    ]);
    await client.close();
  });

  it('warn: reads of a guarded path run and the audit record carries the warning', async () => {
    const { registry, records } = setup('warn');
    const client = await connectClient(registry, 'flat');
    const result = await client.callTool({ name: 'outline_file', arguments: { path: guarded } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(`outline of ${guarded}`);
    await client.callTool({ name: 'outline_file', arguments: { path: unguarded } });
    expect(records.map((r) => [r.operation, r.status, r.warning])).toEqual([
      ['code.outline', 'ok', `STOP_RULE:deploy: ${MESSAGE}`],
      ['code.outline', 'ok', undefined],
    ]);
    await client.close();
  });

  it('enforce: reads of a guarded path are refused with the structured payload; others run', async () => {
    const { registry, records } = setup('enforce');
    const client = await connectClient(registry, 'flat');
    const refused = await client.callTool({ name: 'outline_file', arguments: { path: guarded } });
    expect(refused.isError).toBe(true);
    const text = textOf(refused);
    expect(text.startsWith(`Refused by policy STOP_RULE:deploy: ${MESSAGE}`)).toBe(true);
    expect(refusalIn(text)).toEqual(EXPECTED_READ_REFUSAL);
    const allowed = await client.callTool({ name: 'outline_file', arguments: { path: unguarded } });
    expect(textOf(allowed)).toBe(`outline of ${unguarded}`);
    expect(records.map((r) => [r.status, r.filesRead])).toEqual([
      ['refused', []],
      ['ok', [unguarded]],
    ]);
    await client.close();
  });

  it.each(['allow', 'warn', 'enforce'] as const)(
    '%s: a writing operation on a guarded path is refused before it runs',
    async (mode) => {
      const { registry, records } = setup(mode);
      const client = await connectClient(registry, 'flat');
      const refused = await client.callTool({ name: 'touch_file', arguments: { path: guarded } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).not.toContain('touched');
      expect(refusalIn(textOf(refused))).toEqual(EXPECTED_WRITE_REFUSAL);
      const allowed = await client.callTool({ name: 'touch_file', arguments: { path: unguarded } });
      expect(textOf(allowed)).toBe(`touched ${unguarded}`);
      expect(records.map((r) => [r.operation, r.status, r.warning])).toEqual([
        ['admin.touch', 'refused', undefined],
        ['admin.touch', 'ok', undefined],
      ]);
      await client.close();
    },
  );

  it('puts the refusal fields in the JSON rendering, exactly', async () => {
    const { registry } = setup('enforce');
    const result = await registry.invoke({
      address: { kind: 'operation', op: touch, label: 'touch_file' },
      rawArgs: { path: guarded },
    });
    expect(result.isError).toBe(true);
    const { kind, message, ...payload } = result.json.error as Record<string, unknown>;
    expect(kind).toBe('refused');
    expect(message).toContain(MESSAGE);
    expect(payload).toEqual(EXPECTED_WRITE_REFUSAL);
  });
});

describe('governance from [policy]', () => {
  const loaded = (policy: Record<string, unknown>) => ({
    baseDir: '/ws',
    roots: [
      { name: '.', path: '/ws' },
      { name: '/elsewhere/billing', path: '/elsewhere/billing' },
    ],
    config: configSchema.parse({ policy }),
  });

  it('uses the configured read mode and rules, anchored at the config folder and outside roots', () => {
    const governance = createPolicyGovernance(
      loaded({ read_governance: 'enforce', stop_rules: { billing: 'ask finance' } }),
      {},
    );
    expect(governance.evaluate(outline, '/elsewhere/billing/a.ts').kind).toBe('refuse');
    expect(governance.evaluate(outline, '/ws/src/a.ts').kind).toBe('allow');
  });

  it('allows everything when no rule is configured, whatever the read mode', () => {
    const governance = createPolicyGovernance(loaded({ read_governance: 'enforce' }), {});
    expect(governance.evaluate(touch, '/ws/deploy/a.yml')).toEqual({ kind: 'allow' });
    expect(governance.skillHint?.(outline, '/ws/deploy/a.yml')).toBeUndefined();
  });
});
