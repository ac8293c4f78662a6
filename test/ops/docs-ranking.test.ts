import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rankSections, withoutHtmlComments } from '../../src/ops/docs/ranking.js';
import { connectClient } from '../helpers/mcp.js';
import { indexedRegistry } from '../helpers/workspace.js';

describe('doc sections ranked with BM25', () => {
  it('a rare word outweighs a common one; a long section is not favoured for its length', () => {
    const sections = [
      { title: 'Kafka topics', text: 'Kafka carries order events. Kafka partitions by order id.' },
      { title: 'Consumers', text: 'Every consumer reads Kafka. On failure it will retry three times.' },
      { title: 'Operations', text: `Kafka is monitored. ${'Unrelated words about dashboards. '.repeat(40)}` },
    ];
    const [topics, consumers, operations] = rankSections(sections, ['kafka', 'retry'], 60);
    expect(consumers).toBeGreaterThan(topics ?? 0);
    expect(topics).toBeGreaterThan(operations ?? 0);
    expect(rankSections(sections, ['nothing'], 60)).toEqual([0, 0, 0]);
  });

  it('the exact phrase in a title comes first; HTML comments are not part of a section', () => {
    const sections = [
      { title: 'Dead letter queue', text: 'Messages that fail go to the queue.' },
      {
        title: 'Queues',
        text: 'A dead letter queue keeps failed messages. <!-- dead letter dead letter -->',
      },
    ];
    const [titled, body] = rankSections(sections, ['dead', 'letter', 'queue'], 60);
    expect(titled).toBeGreaterThan(body ?? 0);
    expect(withoutHtmlComments('a <!-- hidden\nnote --> b')).toBe('a  b');
    expect(rankSections([{ title: 'Notes', text: '<!-- todo: rollout plan -->' }], ['rollout'], 60)).toEqual([
      0,
    ]);
  });

  it('search_docs shows no HTML comment and breaks no tie arbitrarily', async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'meshlens-docs-rank-'));
    mkdirSync(path.join(ws, 'docs'));
    writeFileSync(path.join(ws, 'meshlens.toml'), '[workspace]\nroots = ["docs"]\n');
    writeFileSync(
      path.join(ws, 'docs', 'runbook.md'),
      '# Runbook\n\n<!-- internal: page the on-call first -->\n\n## Restart\n\nRestart the payment worker.\n\n## Payment retries\n\nThe payment worker retries a charge twice.\n',
    );
    const { registry, engine } = await indexedRegistry(ws);
    const client = await connectClient(registry, 'flat');
    try {
      const result = await client.callTool({
        name: 'search_docs',
        arguments: { query: 'payment retries', max_sections: 5 },
      });
      const text = (result.content as { text: string }[])[0]?.text ?? '';
      expect(text).not.toContain('<!--');
      expect(text).not.toContain('on-call');
      const titles = [...text.matchAll(/^### \[\d\] (.+?) —/gm)].map((m) => m[1]);
      expect(titles).toEqual(['Payment retries', 'Restart']);
    } finally {
      await client.close();
      await engine.close();
    }
  });
});
