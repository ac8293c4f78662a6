/**
 * Secret masking through the real interfaces: a workspace with planted secrets is indexed, and every
 * operation that returns or matches source text is called over MCP. No answer may show a planted secret,
 * and no answer may tell whether a masked secret contains a string (the search oracle).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexEngine } from '../../src/index/engine.js';
import { createMcpServer } from '../../src/server/mcp-server.js';
import { pemBody, SECRETS } from '../helpers/planted-secrets.js';
import { indexedRegistry } from '../helpers/workspace.js';

const R = '[REDACTED_SECRET]';
const S = SECRETS;
const PEM = pemBody(7);
const DOC_PEM = pemBody(8, 3);

const CLIENTS_TS = [
  "import { Octokit } from '@octokit/rest';",
  '',
  `export const DATABASE_URL = 'postgres://shop:${S.dbPassword.secret}@db.internal:5432/shop';`,
  `export const octokit = new Octokit({ auth: '${S.githubClassic.secret}' });`,
  `export const FINE_GRAINED = '${S.githubFine.secret}';`,
  `export const stripeClient = new Stripe('${S.stripe.secret}');`,
  `export const SLACK_BOT = '${S.slackBot.secret}';`,
  `export const SLACK_HOOK = 'https://hooks.slack.com/services/${S.slackHook.secret}';`,
  `export const SESSION = '${S.jwt.secret}';`,
  `export const AWS_KEY_ID = '${S.awsKeyId.secret}';`,
  `export const MAPS = '${S.googleApi.secret}';`,
  `export const STORAGE = 'DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=${S.azureAccountKey.secret};EndpointSuffix=core.windows.net';`,
  `export const NPM = '${S.npm.secret}';`,
  `export const WEBHOOK = '${S.stripeWebhook.secret}';`,
  '',
  'export function callPayments(body: string) {',
  `  const broker = 'amqp://orders:${S.brokerPassword.secret}@rabbit:5672/';`,
  "  return fetch('https://payments.internal/charge', {",
  `    headers: { Authorization: 'Bearer ${S.bearer.secret}' },`,
  '    body: broker + body,',
  '  });',
  '}',
  '',
  // Masking by name hides this BEGIN line; the body below it must be masked all the same.
  'export const privateKey = `-----BEGIN RSA PRIVATE KEY-----',
  ...PEM,
  '-----END RSA PRIVATE KEY-----`;',
  'export function signingKeyOwner() {',
  "  return 'ops';",
  '}',
  '',
];

/** Values that look like secrets to a careless detector and must stay readable. */
const VISIBLE = {
  uuid: '3f2b6c1e-8a4d-4e0b-9c7a-2d5f1b8e6a90',
  gitSha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  integrity: 'sha512-PbOLdZ3Jx8ZhN6M5wQ0r8mJ4ni4Tw0Yw2x0j0l7kq8k2Dv4QFkCdJ8mQ5FN0HqAVPQ2JYHzW4n8HtCq3mJ2fQ==',
  digest: 'ghcr.io/shop/api@sha256:4a5f2b8c1d9e0f3a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a',
  publishable: 'pk_live_51HqLyjWDarjtT1zdp7dc0000',
  awsExample: 'AKIAIOSFODNN7EXAMPLE',
  filler: 'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  reference: 'postgres://shop:${DB_PASSWORD}@localhost:5432/shop',
  health: 'http://localhost:8080/health',
};

const FIXTURES_TS = Object.entries(VISIBLE).map(
  ([name, value]) => `export const ${name.toUpperCase()}_VALUE = '${value}';`,
);

const APPLICATION_YML = [
  'spring:',
  '  datasource:',
  '    url: jdbc:postgresql://db.internal:5432/shop',
  '    username: shop',
  `    password: ${S.springPassword.secret}`,
];

const SETUP_MD = [
  '# Local setup',
  '',
  `Connect with \`psql postgres://admin:${S.docsPassword.secret}@localhost:5432/shop\`.`,
  '',
  '## Release token',
  '',
  `Publish with \`gh auth login --with-token <<< ${S.docsToken.secret}\`.`,
  '',
  '## Signing key',
  '',
  '```',
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  ...DOC_PEM,
  '-----END OPENSSH PRIVATE KEY-----',
  '```',
];

/** One line over the guard's line limit, so the file is not indexed but named by the "not indexed" note. */
const VENDOR_MIN_JS = `var vendorBundleMarker=1;${'var a=[1,2,3];'.repeat(80)}var t="${S.minifiedToken.secret}";\n`;

let workspace: string;
let engine: IndexEngine;
let client: Client;

beforeAll(async () => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'meshlens-secret-answers-'));
  const write = (rel: string, lines: readonly string[] | string) => {
    mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
    writeFileSync(path.join(workspace, rel), typeof lines === 'string' ? lines : `${lines.join('\n')}\n`);
  };
  write('meshlens.toml', '[workspace]\nroots = ["svc", "docs"]\n');
  write('svc/src/clients.ts', CLIENTS_TS);
  write('svc/src/fixtures.ts', FIXTURES_TS);
  write('svc/src/main/resources/application.yml', APPLICATION_YML);
  write('svc/src/vendor.min.js', VENDOR_MIN_JS);
  write('docs/setup.md', SETUP_MD);
  const indexed = await indexedRegistry(workspace);
  engine = indexed.engine;
  // Structured output on, so that the JSON rendering is checked as well as the Markdown.
  const server = createMcpServer({
    registry: indexed.registry,
    surface: 'flat',
    version: 'test',
    structuredOutput: true,
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  client = new Client({ name: 'meshlens-test', version: '1.0.0' });
  await client.connect(clientTransport);
});

afterAll(async () => {
  await client.close();
  await engine.close();
  rmSync(workspace, { recursive: true, force: true });
});

const answers: string[] = [];

/**
 * The Markdown of an answer. The whole result (JSON rendering included) is kept for the leak check, less the
 * echoes of the question: a probe asked for is repeated in its answer.
 */
async function call(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  const asked = String(args.query ?? args.target);
  answers.push(JSON.stringify(result).split(asked).join(''));
  const content = result.content as { type: string; text: string }[];
  expect(result.isError ?? false).toBe(false);
  return content[0]?.text ?? '';
}

const linesOf = (markdown: string): string[] => markdown.split('\n');

describe('masked in every answer that carries source text', () => {
  it('full-text search shows the matching lines with each secret masked, by value whatever the name', async () => {
    const text = await call('smart_search', { query: 'export const', fuzzy: true, limit: 5 });
    expect(linesOf(await call('smart_search', { query: 'DATABASE_URL =', fuzzy: true }))).toContain(
      `L3: export const DATABASE_URL = 'postgres://shop:${R}@db.internal:5432/shop';`,
    );
    expect(text).toContain('### [1] `svc/src/clients.ts` (13 lines match)');
    const storage = await call('smart_search', { query: 'AccountKey', fuzzy: true });
    expect(storage).toContain(
      `L12: export const STORAGE = 'DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=${R};EndpointSuffix=core.windows.net';`,
    );
    const bearer = await call('smart_search', { query: 'Authorization', fuzzy: true });
    expect(bearer).toContain(`L19: headers: { Authorization: 'Bearer ${R}' },`);
    const spring = await call('smart_search', { query: 'password:', fuzzy: true });
    expect(spring).toContain(`L5: password: ${R}`);
  });

  it('declaration snippets and full bodies show the secrets masked', async () => {
    const snippet = await call('smart_search', { query: 'DATABASE_URL' });
    for (const line of [
      `export const octokit = new Octokit({ auth: '${R}' });`,
      `export const FINE_GRAINED = '${R}';`,
      `export const stripeClient = new Stripe('${R}');`,
      `export const SLACK_BOT = '${R}';`,
      `export const SLACK_HOOK = 'https://hooks.slack.com/services/${R}';`,
      `export const SESSION = '${R}';`,
      `export const AWS_KEY_ID = '${R}';`,
      `export const MAPS = '${R}';`,
      `export const NPM = '${R}';`,
      `export const WEBHOOK = '${R}';`,
    ]) {
      expect(linesOf(snippet)).toContain(line);
    }
    const body = await call('smart_search', { query: 'callPayments', include_body: true });
    expect(linesOf(body)).toContain(`  const broker = 'amqp://orders:${R}@rabbit:5672/';`);
    expect(linesOf(body)).toContain(`    headers: { Authorization: 'Bearer ${R}' },`);
  });

  it('a private key is masked line by line even when masking by name hid its BEGIN line', async () => {
    const whole = await call('smart_search', { query: 'privateKey', include_body: true });
    const at = linesOf(whole).indexOf(`export const privateKey = \`${R}`);
    expect(at).toBeGreaterThan(0);
    expect(linesOf(whole).slice(at + 1, at + 6)).toEqual([R, R, R, R, '-----END RSA PRIVATE KEY-----`;']);
    // The snippet of the next declaration starts inside the key: its BEGIN line is not shown at all.
    const tail = await call('smart_search', { query: 'signingKeyOwner' });
    expect(tail).toContain(
      `\`\`\`ts\n${R}\n-----END RSA PRIVATE KEY-----\`;\nexport function signingKeyOwner() {`,
    );
  });

  it('docs search masks secrets in sections, prose and code blocks alike', async () => {
    const setup = await call('search_docs', { query: 'local setup', max_sections: 1 });
    expect(setup).toContain(`Connect with \`psql postgres://admin:${R}@localhost:5432/shop\`.`);
    const release = await call('search_docs', { query: 'release token', max_sections: 1 });
    expect(release).toContain(`Publish with \`gh auth login --with-token <<< ${R}\`.`);
    const key = await call('search_docs', { query: 'signing key', max_sections: 1 });
    expect(key).toContain(
      `-----BEGIN OPENSSH PRIVATE KEY-----\n${R}\n${R}\n${R}\n-----END OPENSSH PRIVATE KEY-----`,
    );
  });

  it('values that only look like secrets stay readable', async () => {
    for (const value of Object.values(VISIBLE)) {
      const text = await call('smart_search', { query: value, fuzzy: true });
      expect(text).toContain(`_VALUE = '${value}';`);
    }
  });
});

describe('a masked secret is not searchable (no oracle)', () => {
  const probes = [
    ...Object.values(SECRETS).map((s) => s.probe),
    PEM[1]?.slice(20, 28) ?? '',
    DOC_PEM[1]?.slice(20, 28) ?? '',
  ];
  const zero = (query: string) => `Exactly 0 indexed files in scope contain \`${query}\``;

  it('full-text search finds no file for a piece of any masked secret', async () => {
    for (const probe of probes) {
      expect(await call('smart_search', { query: probe, fuzzy: true })).toContain(zero(probe));
    }
    expect(await call('smart_search', { query: 'vendorBundleMarker', fuzzy: true })).toContain(
      '`svc/src/vendor.min.js` (long_line',
    );
  });

  it('declaration search, full-body search, dependents and gRPC lookups name no unindexed file for it', async () => {
    const probe = S.minifiedToken.probe;
    const notIndexed = '`svc/src/vendor.min.js` (long_line';
    // The control: the note names the unindexed file for a string it holds outside any secret.
    expect(await call('smart_search', { query: 'vendorBundleMarker' })).toContain(notIndexed);
    for (const [name, args] of [
      ['smart_search', { query: probe }],
      ['smart_search', { query: probe, include_body: true }],
      ['find_dependents', { target: probe }],
      ['analyze_grpc', { target: probe }],
    ] as const) {
      expect(await call(name, args)).not.toContain(notIndexed);
    }
  });

  it('docs search finds no section for a piece of a masked secret', async () => {
    for (const probe of [S.docsPassword.probe, S.docsToken.probe, DOC_PEM[1]?.slice(20, 28) ?? '']) {
      expect(await call('search_docs', { query: probe })).toContain('Exactly 0 doc sections match');
    }
  });
});

describe('nothing leaks', () => {
  it('no answer above carried a planted secret or a piece of one, in Markdown or JSON', () => {
    expect(answers.length).toBeGreaterThan(40);
    const pieces = [
      ...Object.values(SECRETS).flatMap((s) => [s.secret, s.probe]),
      ...[...PEM, ...DOC_PEM].map((line) => line.slice(20, 28)),
    ];
    for (const answer of answers) {
      for (const piece of pieces) expect(answer).not.toContain(piece);
    }
  });
});
