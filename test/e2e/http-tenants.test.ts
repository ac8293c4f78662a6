/**
 * `[server.tenants]` over real HTTP on loopback with real keys: two tenants whose workspaces are built alike
 * but for their names (tenant-lab.ts). Whatever one tenant's session asks — every mode of every tool served,
 * every resource and template, every completion, every prompt — no answer holds the other tenant's name,
 * and so none of its files, symbols, notes or paths.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsReport } from '../../src/cli/stats-command.js';
import { AUTH_MESSAGES } from '../../src/server/api-key-auth.js';
import { NO_TENANT_WORKSPACE } from '../../src/server/http/tenant-gate.js';
import { readAuditRows } from '../../src/store/audit-rows.js';
import { tenantAuditDbPath } from '../../src/store/cache-paths.js';
import { runCli, tempEnv } from '../helpers/cli.js';
import { removeTemps, tempDir, waitFor, writeFiles } from '../helpers/engine.js';
import { git } from '../helpers/git.js';
import { httpClient, startHttpServe, stopHttpServe, type HttpServe } from '../helpers/http-serve.js';
import { MODE_ARGS, PATH_ARGUMENTS, TENANTS, tenantWorkspace, type Tenant } from '../helpers/tenant-lab.js';

const KEY_LINE = /^(ml_[0-9a-f]{48})$/m;

let env: Record<string, string>;
let serve: HttpServe;
let serverConfig: string;
const workspaces = {} as Record<Tenant, string>;
const keys = {} as Record<Tenant | 'initech', string>;
/** Tool calls made per tenant, each one admitted and counted once, each one one audit row. */
const toolCalls: Record<Tenant, number> = { acme: 0, globex: 0 };
/** Resource reads per tenant: each runs an operation through the registry, so each is an audit row too. */
const resourceReads: Record<Tenant, number> = { acme: 0, globex: 0 };
const other = (t: Tenant): Tenant => (t === 'acme' ? 'globex' : 'acme');
const capital = (t: string): string => `${t[0]?.toUpperCase()}${t.slice(1)}`;
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The modes given a path in MODE_ARGS, in the order they are served. */
const PATH_MODES = [
  'memory.put',
  'code.search',
  'code.outline',
  'code.expand',
  'code.grep',
  'code.definition',
  'code.references',
  'code.callers',
  'code.callees',
  'code.implementations',
  'contracts.grpc',
  'docs.read',
  'git.status',
  'git.touching',
  'git.diff',
  'git.diff_outline',
  'git.blame',
  'git.blame_symbol',
  'git.symbol_history',
  'admin.rescan',
];

function createKey(tenant: string): string {
  const created = runCli(['keys', 'create', '--tenant', tenant, '--role', 'member'], { env });
  const key = KEY_LINE.exec(created.stdout)?.[1];
  if (!key) throw new Error(`keys create failed: ${created.stderr}`);
  return key;
}

const connect = (t: Tenant): Promise<Client> => httpClient(serve.url, `tenant-${t}`, keys[t]);

type Answer = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: unknown };

async function call(client: Client, t: Tenant, name: string, args: Record<string, unknown>): Promise<Answer> {
  toolCalls[t]++;
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as Answer;
}

const textOf = (answer: Answer): string => answer.content.map((c) => c.text ?? '').join('\n');

/** Everything an answer says, text and structured part, for the leak check. */
const allOf = (value: unknown): string => JSON.stringify(value);

beforeAll(async () => {
  const root = tempDir('meshlens-tenants-');
  for (const t of TENANTS) workspaces[t] = tenantWorkspace(root, t);
  writeFiles(root, {
    'server/meshlens.toml': [
      '[server.tenants.acme]',
      'workspace = "../acme"',
      '',
      '[server.tenants.globex]',
      'workspace = "../globex"',
      '',
      '[server.visibility.roles]',
      'member = ["*"]',
      '',
    ].join('\n'),
  });
  env = tempEnv();
  keys.acme = createKey('acme');
  keys.globex = createKey('globex');
  keys.initech = createKey('initech');
  serverConfig = path.join(root, 'server/meshlens.toml');
  serve = await startHttpServe(['--config', serverConfig], env);
}, 60_000);

afterAll(() => {
  if (serve.process.exitCode === null) serve.process.kill('SIGKILL');
  removeTemps();
});

const TEMPLATES = [
  'meshlens://services/{service}',
  'meshlens://contracts/{target}',
  'meshlens://impact/{target}',
  'meshlens://docs/{+path}',
  'meshlens://notes/{+key}',
];

/** An `initialize` request as a client without the SDK sends it, with a key. */
const initialize = (key: string) =>
  fetch(serve.url, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });

/** Every (tool, mode) the session is served, from tools/list: a domain tool's modes, a writing mode's own tool. */
async function servedModes(client: Client): Promise<{ tool: string; mode?: string; key: string }[]> {
  const listed = (await client.listTools()).tools.flatMap((tool) => {
    const modes = (tool.inputSchema.properties?.mode as { enum?: string[] } | undefined)?.enum;
    if (modes) return modes.map((mode) => ({ tool: tool.name, mode, key: `${tool.name}.${mode}` }));
    return [{ tool: tool.name, key: tool.name.replace('_', '.') }];
  });
  // A note is put first and deleted last, so that the modes reading notes have one to read.
  const rank = (key: string): number => (key === 'memory.put' ? 0 : key === 'memory.delete' ? 2 : 1);
  return listed.sort((a, b) => rank(a.key) - rank(b.key));
}

describe('serve --http with [server.tenants] (built CLI, real keys)', () => {
  it('every mode of every tool answers each tenant from its own workspace only', async () => {
    for (const t of TENANTS) {
      const client = await connect(t);
      const modes = await servedModes(client);
      expect(modes.length).toBe(Object.keys(MODE_ARGS).length);
      const failed: string[] = [];
      for (const { tool, mode, key } of modes) {
        const args = MODE_ARGS[key];
        expect(args, `${key} has arguments in MODE_ARGS`).toBeDefined();
        const answer = await call(client, t, tool, { ...(mode ? { mode } : {}), ...args });
        if (answer.isError) failed.push(`${key}: ${textOf(answer)}`);
        expect(allOf(answer), `${t} ${key}`).not.toMatch(new RegExp(other(t), 'i'));
        if (key === 'code.search') expect(textOf(answer)).toContain(`struct \`${capital(t)}Worker\` L11`);
      }
      expect(failed).toEqual([]);
      await client.close();
    }
  }, 300_000);

  it("a path of the other tenant's workspace is refused as outside the workspace, by every mode that takes one", async () => {
    for (const t of TENANTS) {
      const client = await connect(t);
      const refused: string[] = [];
      for (const { tool, mode, key } of await servedModes(client)) {
        const args = MODE_ARGS[key] ?? {};
        const field = PATH_ARGUMENTS.find((name) => typeof args[name] === 'string');
        if (field === undefined) continue;
        const foreign = path.join(workspaces[other(t)], String(args[field]));
        const answer = await call(client, t, tool, { ...(mode ? { mode } : {}), ...args, [field]: foreign });
        expect(answer.isError, `${t} ${key}`).toBe(true);
        expect(textOf(answer), `${t} ${key}`).toMatch(
          new RegExp(
            `^\`${field}\` must be inside the workspace roots \\(\\.\\); ${escape(JSON.stringify(foreign))} is outside them\\. `,
          ),
        );
        refused.push(key);
      }
      expect(refused).toEqual(PATH_MODES);
      await client.close();
    }
  }, 120_000);

  it('a note one tenant puts is not there for the other: not listed, found, searched, completed or read', async () => {
    const acme = await connect('acme');
    const globex = await connect('globex');
    const note = { key: 'handover/acme', value: 'Acme on-call: ring the acme pager.' };
    expect((await call(acme, 'acme', 'memory_put', note)).isError).toBeFalsy();

    const answers = [
      await call(globex, 'globex', 'memory', { mode: 'list' }),
      await call(globex, 'globex', 'memory', { mode: 'get', key: note.key }),
      await call(globex, 'globex', 'memory', { mode: 'search', query: 'pager' }),
    ];
    expect(answers.map(textOf)).toEqual([
      'No notes.\n\n',
      'No note under `handover/acme`: this workspace has no notes yet (memory put writes one).',
      'No note holds any of: pager. memory list shows every note.\n\n',
    ]);
    const completion = await globex.complete({
      ref: { type: 'ref/resource', uri: 'meshlens://notes/{+key}' },
      argument: { name: 'key', value: '' },
    });
    expect(completion.completion).toEqual({ values: [], total: 0, hasMore: false });
    resourceReads.globex++;
    await expect(globex.readResource({ uri: `meshlens://notes/${note.key}` })).rejects.toThrow(
      'No note under `handover/acme`: this workspace has no notes yet (memory put writes one).',
    );

    const own = textOf(await call(acme, 'acme', 'memory', { mode: 'list' }));
    expect(own.replace(/written \S+/, 'written T')).toBe(
      '1 note(s).\n\n### `handover/acme`\nno tags · by tenant-acme · written T\n\nAcme on-call: ring the acme pager.\n\n---\n' +
        'Showing 1–1 of 1 notes. This is the last page.\n',
    );
    await Promise.all([acme.close(), globex.close()]);
  }, 60_000);

  it('resources, templates, completions and prompts show each tenant its own names only', async () => {
    for (const t of TENANTS) {
      const client = await connect(t);
      // A call that waits for the first index, so that the lists below are the indexed ones.
      expect((await call(client, t, 'code', { mode: 'files', query: 'orders' })).isError).toBeFalsy();
      const seen: unknown[] = [];
      const resources = (await client.listResources()).resources;
      const templates = (await client.listResourceTemplates()).resourceTemplates;
      expect(resources.map((r) => r.uri)).toEqual([
        'meshlens://services',
        'meshlens://graph.json',
        'meshlens://graph.html',
        'meshlens://docs/README.md',
        'meshlens://docs/docs/guide.md',
      ]);
      expect(templates.map((x) => x.uriTemplate)).toEqual(TEMPLATES);
      for (const resource of resources) {
        resourceReads[t]++;
        seen.push(await client.readResource({ uri: resource.uri }));
      }
      const completed: Record<string, string[]> = {};
      for (const template of templates) {
        const variable = /\{\+?(\w+)\}/.exec(template.uriTemplate)?.[1] ?? '';
        const { completion } = await client.complete({
          ref: { type: 'ref/resource', uri: template.uriTemplate },
          argument: { name: variable, value: '' },
        });
        completed[template.uriTemplate] = completion.values;
        for (const value of completion.values) {
          resourceReads[t]++;
          const uri = template.uriTemplate.replace(/\{\+?\w+\}/, value);
          seen.push(await client.readResource({ uri }).catch((error: Error) => error.message));
        }
      }
      for (const prompt of (await client.listPrompts()).prompts) {
        const args: Record<string, string> = {};
        for (const argument of prompt.arguments ?? []) {
          const { completion } = await client.complete({
            ref: { type: 'ref/prompt', name: prompt.name },
            argument: { name: argument.name, value: '' },
          });
          completed[`${prompt.name}.${argument.name}`] = completion.values;
          args[argument.name] = completion.values[0] ?? 'rename a field';
        }
        seen.push(await client.getPrompt({ name: prompt.name, arguments: args }));
      }
      const services = ['.', 'docs', 'orders', 'proto', t].sort();
      const contracts = [`${t}.orders.OrderService`, `${t}.orders.OrderService/PlaceOrder`];
      expect(completed).toEqual({
        'meshlens://services/{service}': services,
        'meshlens://contracts/{target}': contracts,
        'meshlens://impact/{target}': contracts,
        'meshlens://docs/{+path}': ['README.md', 'docs/guide.md'],
        'meshlens://notes/{+key}': t === 'acme' ? ['handover/acme'] : [],
        'review_diff_impact.base': ['HEAD', 'main'],
        'tour_service.service': services,
        'change_contract_safely.target': contracts,
        'change_contract_safely.change': [],
      });
      expect(allOf(seen)).not.toMatch(new RegExp(other(t), 'i'));
      await client.close();
    }
  }, 120_000);

  it("a git cursor of one tenant does not page the other's history: it names another HEAD", async () => {
    const acme = await connect('acme');
    const globex = await connect('globex');
    const page = await call(globex, 'globex', 'git', { mode: 'recent', limit: 1 });
    const cursor = (page.structuredContent as { next_cursor: string }).next_cursor;
    const replayed = await call(acme, 'acme', 'git', { mode: 'recent', limit: 1, cursor });
    const head = (t: Tenant) => git(workspaces[t], 'rev-parse', '--short=7', 'HEAD');
    expect(replayed.isError).toBe(true);
    expect(textOf(replayed)).toBe(
      `\`cursor\` was made when HEAD was ${head('globex')}, but HEAD is now ${head('acme')} (a commit or checkout happened since): repeat the call without \`cursor\` to start from the first page.`,
    );
    await Promise.all([acme.close(), globex.close()]);
  }, 60_000);

  it('a key whose tenant has no workspace here is refused at authentication (403), an unknown key as before (401)', async () => {
    const unserved = await initialize(keys.initech);
    expect([unserved.status, unserved.headers.get('www-authenticate')]).toEqual([403, null]);
    expect(await unserved.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: NO_TENANT_WORKSPACE },
      id: null,
    });
    const unknown = await initialize(`ml_${'0'.repeat(48)}`);
    expect([unknown.status, unknown.headers.get('www-authenticate')]).toEqual([
      401,
      'Bearer realm="meshlens", error="invalid_token"',
    ]);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe(
      AUTH_MESSAGES.rejected,
    );
  });

  it("a change to the server's config applies to every tenant at once, and names what waits for a restart, not the file", async () => {
    const sessions = await Promise.all(
      TENANTS.map(async (t) => {
        const client = await connect(t);
        const heard = { changes: 0, logs: [] as string[] };
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.changes++);
        client.setNotificationHandler(
          LoggingMessageNotificationSchema,
          (n) => void heard.logs.push(String(n.params.data)),
        );
        // The SDK client opens its GET stream after `initialized`; a tools/list round trip gives it time.
        await client.listTools();
        return { client, heard };
      }),
    );
    writeFileSync(
      serverConfig,
      readFileSync(serverConfig, 'utf8').replace('member = ["*"]', 'member = ["code"]') +
        '\n[docs]\nstop_words = ["the"]\n',
    );
    await waitFor(
      'tools/list_changed in both tenants',
      () => sessions.every((s) => s.heard.changes > 0),
      10_000,
    );
    await waitFor(
      'the restart notice in both tenants',
      () => sessions.every((s) => s.heard.logs.length > 0),
      10_000,
    );
    for (const { client, heard } of sessions) {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['code']);
      expect(heard.logs).toEqual([
        "The server's config changed docs.stop_words: it applies when the server restarts.",
      ]);
      await client.close();
    }
  }, 60_000);

  it("ends with each tenant's calls in its own audit chain, both verifying, and usage per tenant in stats", async () => {
    expect(await stopHttpServe(serve)).toBe(0);
    for (const t of TENANTS) {
      const rows = readAuditRows(tenantAuditDbPath(t, env));
      expect(rows.length, t).toBe(toolCalls[t] + resourceReads[t]);
      expect(allOf(rows)).not.toMatch(new RegExp(other(t), 'i'));
      const verify = runCli(['audit', 'verify', '--tenant', t], { env });
      expect(verify.status).toBe(0);
      expect(verify.stdout).toMatch(
        new RegExp(`^audit log OK: ${rows.length} rows, head ${rows.length}:[0-9a-f]{64}\n$`),
      );
    }
    // Nothing went to the installation's own log.
    expect(existsSync(env.MESHLENS_AUDIT_DB ?? '')).toBe(false);

    const stats = JSON.parse(runCli(['stats', '--json'], { env }).stdout) as StatsReport;
    const perTenant = TENANTS.map((tenant) => ({
      tenant,
      keys: 1,
      calls: toolCalls[tenant],
      refusals: 0,
    })).sort((a, b) => b.calls - a.calls || (a.tenant < b.tenant ? -1 : 1));
    expect(stats.key_usage.tenants).toEqual(perTenant);
    const acme = JSON.parse(runCli(['stats', '--tenant', 'acme', '--json'], { env }).stdout) as StatsReport;
    expect([acme.db, acme.tenant, acme.calls]).toEqual([
      tenantAuditDbPath('acme', env),
      'acme',
      toolCalls.acme + resourceReads.acme,
    ]);
    expect(acme.key_usage.callers.map((c) => [c.tenant, c.calls])).toEqual([['acme', toolCalls.acme]]);
    expect(acme.key_usage.tenants).toEqual([{ tenant: 'acme', keys: 1, calls: toolCalls.acme, refusals: 0 }]);
  }, 60_000);
});
