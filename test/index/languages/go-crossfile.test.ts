import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { FileFacts } from '../../../src/index/facts.js';
import { reconcile } from '../../../src/index/graph/reconcile.js';
import { extractGo } from '../../../src/index/languages/go/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';
import type { IndexedFile } from '../../../src/index/snapshot.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// These files' own facts are the golden case test/golden/go/package-values-across-files.
const fixtures = path.join(root, 'test/golden/go/package-values-across-files/services/orders/crossfile');
const grammarsDir = path.join(root, 'node_modules/tree-sitter-go');

async function extractSource(source: string, file = 'services/orders/inline.go'): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: file, language: 'go', source },
    { grammarsDir, extractors: { go: extractGo } },
  );
  if (outcome.kind !== 'parsed')
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  return outcome.facts;
}

function extract(name: string): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), `services/orders/crossfile/${name}`);
}

function indexed(rootName: string, file: string, facts: FileFacts): IndexedFile {
  return {
    root: rootName,
    path: file,
    absolutePath: `/ws/${rootName}/${file}`,
    language: 'go',
    size: 1,
    mtimeMs: 0,
    hash: file,
    outcome: 'parsed',
    facts,
  };
}

describe('go package-level values across files', () => {
  test('the reconciler resolves ${go:…} topics: own package in the same folder, imports in the root, then the workspace', async () => {
    const files = [
      indexed('orders', 'broker/topics.go', await extract('broker/topics.go')),
      indexed('orders', 'config.go', await extract('config.go')),
      indexed('orders', 'publisher.go', await extract('publisher.go')),
      // A shared library root: the only package eventbus of the workspace.
      indexed(
        'platform',
        'eventbus/bus.go',
        await extractSource('package eventbus\n\nconst AuditTopic = "audit.events"\n'),
      ),
      // Another service's main package declares localTopic too: never consulted for the orders root.
      indexed(
        'billing',
        'main.go',
        await extractSource('package main\n\nvar localTopic = "billing.local"\n'),
      ),
      // Another main package of the orders root (its own folder) declares no localTopic: dropped.
      indexed(
        'orders',
        'cmd/replay/main.go',
        await extractSource(`package main

import "github.com/IBM/sarama"

func replay(p sarama.SyncProducer) {
	_, _, _ = p.SendMessage(&sarama.ProducerMessage{Topic: localTopic})
	_, _, _ = p.SendMessage(&sarama.ProducerMessage{Topic: Missing})
}
`),
      ),
    ];
    const graph = reconcile({ files, services: new Map() });
    const topics = graph.edges
      .filter((e) => e.kind === 'produces' || e.kind === 'consumes')
      .map((e) => ({
        kind: e.kind,
        topic: graph.nodes[e.to]?.name,
        from: graph.nodes[e.from]?.name,
        root: e.root,
        file: e.file,
        line: e.line,
        confidence: e.confidence,
      }))
      .sort(
        (a, b) =>
          a.file.localeCompare(b.file) || a.line - b.line || String(a.topic).localeCompare(String(b.topic)),
      );
    expect(topics).toEqual([
      {
        kind: 'produces',
        topic: 'orders',
        from: 'publisher.placed',
        root: 'orders',
        file: 'publisher.go',
        line: 17,
        confidence: 'heuristic',
      },
      {
        kind: 'produces',
        topic: 'audit.events',
        from: 'publisher.audited',
        root: 'orders',
        file: 'publisher.go',
        line: 21,
        confidence: 'heuristic',
      },
      {
        kind: 'produces',
        topic: 'orders.local',
        from: 'publisher.local',
        root: 'orders',
        file: 'publisher.go',
        line: 25,
        confidence: 'heuristic',
      },
      {
        kind: 'consumes',
        topic: 'orders.retry',
        from: 'consume',
        root: 'orders',
        file: 'publisher.go',
        line: 29,
        confidence: 'heuristic',
      },
      {
        kind: 'consumes',
        topic: 'payments.settled',
        from: 'consume',
        root: 'orders',
        file: 'publisher.go',
        line: 29,
        confidence: 'exact',
      },
    ]);
    // No topic node is ever named after an unresolved placeholder.
    expect(
      graph.nodes
        .filter((n) => n.kind === 'topic')
        .map((n) => n.name)
        .sort(),
    ).toEqual(['audit.events', 'orders', 'orders.local', 'orders.retry', 'payments.settled']);
  });

  test('a package name declared with different values in two other roots resolves to nothing', async () => {
    const files = [
      indexed('orders', 'publisher.go', await extract('publisher.go')),
      indexed(
        'audit-a',
        'eventbus/bus.go',
        await extractSource('package eventbus\n\nconst AuditTopic = "audit.a"\n'),
      ),
      indexed(
        'audit-b',
        'eventbus/bus.go',
        await extractSource('package eventbus\n\nconst AuditTopic = "audit.b"\n'),
      ),
    ];
    const graph = reconcile({ files, services: new Map() });
    const names = graph.nodes.filter((n) => n.kind === 'topic').map((n) => n.name);
    expect(names).toEqual(['payments.settled']);
  });
});
