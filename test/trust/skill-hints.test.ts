import { mkdirSync, mkdtempSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation } from '../../src/core/operation.js';
import { Registry } from '../../src/core/registry.js';
import { DESCRIPTION_MAX_BYTES, SkillHints, capBytes, describeSkill } from '../../src/trust/skill-hints.js';
import { StopRules } from '../../src/trust/stop-rules.js';
import { connectClient, textOf } from '../helpers/mcp.js';

const find = defineOperation({
  domain: 'code',
  mode: 'search',
  flatName: 'find_things',
  title: 'Find',
  description: 'Finds things in a scope, e.g. "services/billing". DO NOT USE for docs (use nothing).',
  args: { scope: z.string().min(1).describe('A folder, e.g. "services/billing".') },
  output: z.looseObject({}),
  capabilities: {},
  subject: (args) => args.scope,
  run: (args) => ({ data: { scope: args.scope }, markdown: `found in ${args.scope}` }),
});

const picture = defineOperation({
  domain: 'graph',
  mode: 'visualize',
  flatName: 'draw_things',
  title: 'Draw',
  description:
    'Draws a scope as a document, e.g. "services/billing". DO NOT USE for search (use find_things).',
  args: { scope: z.string().min(1).describe('A folder, e.g. "services/billing".') },
  output: z.looseObject({}),
  capabilities: {},
  subject: (args) => args.scope,
  run: (args) => ({
    data: { scope: args.scope },
    markdown: `{"scope":${JSON.stringify(args.scope)}}`,
    document: true,
  }),
});

function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'meshlens-skills-')));
  mkdirSync(path.join(dir, 'skills'));
  const files: Record<string, string> = {
    'search.md': '# Searching this monorepo\n\nUse scopes.\n',
    'billing.md':
      '---\ntitle: Billing\ndescription: "How billing services talk to the ledger"\n---\n\n# Billing heading (not used)\n',
    'services.md': '---\ntitle: only a title\n---\n# Service conventions\n',
    'folded.md': '---\ndescription: >\n  Spread over\n  two lines\n---\n',
    'plain.md': 'No heading at all.\n',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, 'skills', name), text);
  return dir;
}

async function answer(
  skills: Record<string, string>,
  dir: string,
  name: string,
  scope: string,
): Promise<string> {
  const registry = new Registry({
    operations: [find, picture],
    services: undefined,
    governance: new StopRules({
      rules: {},
      skills: new SkillHints({ skills, baseDir: dir, anchors: [dir] }),
    }),
  });
  const client = await connectClient(registry, 'flat');
  try {
    return textOf(await client.callTool({ name, arguments: { scope } }));
  } finally {
    await client.close();
  }
}

const hinted = (line: string, body: string) => `> ${line}\n\n${body}`;

describe('skill hints at the top of matching answers', () => {
  const dir = workspace();

  it('a key equal to the tool name (or domain.mode) fires on every call of it', async () => {
    for (const key of ['find_things', 'code.search']) {
      expect(await answer({ [key]: 'skills/search.md' }, dir, 'find_things', 'anything/at/all')).toBe(
        hinted(
          'Project skill for this area: `skills/search.md` — Searching this monorepo',
          'found in anything/at/all',
        ),
      );
    }
  });

  it('a tool-name key takes precedence over a longer matching subject key', async () => {
    const skills = { find_things: 'skills/search.md', 'services/billing': 'skills/billing.md' };
    expect(await answer(skills, dir, 'find_things', 'services/billing/src')).toContain('`skills/search.md`');
  });

  it('a subject key matches as a case-insensitive substring, and only where it matches', async () => {
    const skills = { BILLING: 'skills/billing.md' };
    expect(await answer(skills, dir, 'find_things', `${dir}/services/billing/src`)).toBe(
      hinted(
        'Project skill for this area: `skills/billing.md` — How billing services talk to the ledger',
        `found in ${dir}/services/billing/src`,
      ),
    );
    expect(await answer(skills, dir, 'find_things', 'services/orders')).toBe('found in services/orders');
  });

  it('the longest matching key wins', async () => {
    const skills = { services: 'skills/services.md', 'services/billing': 'skills/billing.md' };
    expect(await answer(skills, dir, 'find_things', 'services/billing/api')).toContain(
      '`skills/billing.md` — How billing',
    );
    expect(await answer(skills, dir, 'find_things', 'services/orders')).toContain(
      '`skills/services.md` — Service conventions',
    );
  });

  it('matches the subject relative to the workspace, not the folders above it', async () => {
    const above = path.basename(dir);
    expect(await answer({ [above]: 'skills/search.md' }, dir, 'find_things', `${dir}/services/orders`)).toBe(
      `found in ${dir}/services/orders`,
    );
  });

  it('is never added to a document (JSON, HTML)', async () => {
    const text = await answer(
      { draw_things: 'skills/search.md', services: 'skills/services.md' },
      dir,
      'draw_things',
      'services/a',
    );
    expect(text).toBe('{"scope":"services/a"}');
  });

  it('shows nothing when the skill file is missing', async () => {
    expect(await answer({ find_things: 'skills/nope.md' }, dir, 'find_things', 'x')).toBe('found in x');
  });

  it('shows the path alone when the file has neither a description nor a heading', async () => {
    expect(await answer({ find_things: 'skills/plain.md' }, dir, 'find_things', 'x')).toBe(
      hinted('Project skill for this area: `skills/plain.md`', 'found in x'),
    );
  });

  it('accepts ${WORKSPACE_ROOT} in the skill path', () => {
    const hints = new SkillHints({
      skills: { find_things: '${WORKSPACE_ROOT}/skills/search.md' },
      baseDir: dir,
      workspaceRoot: dir,
    });
    expect(hints.hint(find, 'x')).toBe(
      'Project skill for this area: `skills/search.md` — Searching this monorepo',
    );
  });

  it('re-reads a skill file only when it changed', () => {
    const file = path.join(dir, 'skills', 'changing.md');
    writeFileSync(file, '# First title\n');
    utimesSync(file, 1_000, 1_000);
    const hints = new SkillHints({ skills: { find_things: 'skills/changing.md' }, baseDir: dir });
    expect(hints.hint(find, 'x')).toContain('First title');
    writeFileSync(file, '# Other title\n');
    utimesSync(file, 1_000, 1_000);
    // Same mtime and size: the cached description is served.
    expect(hints.hint(find, 'x')).toContain('First title');
    utimesSync(file, 2_000, 2_000);
    expect(hints.hint(find, 'x')).toContain('Other title');
  });
});

describe('what a skill file says about itself', () => {
  it('prefers the front matter description over the first heading', () => {
    expect(describeSkill('---\ndescription: From the front matter\n---\n# Heading\n')).toBe(
      'From the front matter',
    );
    expect(describeSkill("---\ndescription: 'single quoted'\n---\n")).toBe('single quoted');
    expect(describeSkill('---\ndescription: >\n  Spread over\n  two lines\n---\n')).toBe(
      'Spread over two lines',
    );
  });

  it('falls back to the first `# ` heading, not a `##` one', () => {
    expect(describeSkill('intro\n## Second level\n# The title #\n')).toBe('The title');
    expect(describeSkill('---\ntitle: x\n---\n\n# After front matter\n')).toBe('After front matter');
  });

  it('looks only at the first 20 lines', () => {
    expect(describeSkill(`${'text\n'.repeat(20)}# Too late\n`)).toBeUndefined();
    expect(describeSkill(`${'text\n'.repeat(19)}# Just in time\n`)).toBe('Just in time');
  });

  it('caps the description at 200 bytes on a character boundary', () => {
    const description = describeSkill(`---\ndescription: ${'é'.repeat(150)}\n---\n`) ?? '';
    expect(Buffer.byteLength(description)).toBeLessThanOrEqual(DESCRIPTION_MAX_BYTES);
    expect(Buffer.byteLength(description)).toBeGreaterThan(DESCRIPTION_MAX_BYTES - 4);
    expect(description.endsWith('…')).toBe(true);
    expect(description).not.toContain('\uFFFD');
    expect(description.slice(0, -1)).toBe('é'.repeat(98));
    // Astral characters (4 bytes, two UTF-16 units) are never split.
    const emoji = capBytes('😀'.repeat(60), DESCRIPTION_MAX_BYTES);
    expect(emoji).toBe(`${'😀'.repeat(49)}…`);
    expect(capBytes('short', DESCRIPTION_MAX_BYTES)).toBe('short');
  });

  it('keeps the hint on one line', () => {
    expect(describeSkill('# A   title\twith\u00a0spaces\n')).toBe('A title with spaces');
  });
});
