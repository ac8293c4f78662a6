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
const fixtures = path.join(root, 'test/fixtures/languages/go');
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
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), `services/orders/${name}`);
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
  test('broker/topics.go exports its resolvable package-level strings as go:<package>.<Name>', async () => {
    expect(await extract('crossfile/broker/topics.go')).toEqual({
      language: 'go',
      package: 'broker',
      symbols: [
        {
          id: 0,
          kind: 'variable',
          name: 'Topic',
          qualifiedName: 'Topic',
          signature: 'var Topic          = topicFromEnv()',
          startLine: 11,
          endLine: 11,
          docstring: 'Topic is where placed orders go; KAFKA_TOPIC overrides the default.',
          exported: true,
        },
        {
          id: 1,
          kind: 'variable',
          name: 'RetryTopic',
          qualifiedName: 'RetryTopic',
          signature: 'var RetryTopic     = Topic + ".retry"',
          startLine: 12,
          endLine: 12,
          exported: true,
        },
        {
          id: 2,
          kind: 'variable',
          name: 'DeadLetters',
          qualifiedName: 'DeadLetters',
          signature: 'var DeadLetters    = envOr("DLQ_TOPIC", "orders.dead")',
          startLine: 13,
          endLine: 13,
          exported: true,
        },
        {
          id: 3,
          kind: 'variable',
          name: 'BrokerPassword',
          qualifiedName: 'BrokerPassword',
          signature: 'var BrokerPassword = "not-a-topic"',
          startLine: 14,
          endLine: 14,
          exported: true,
        },
        {
          id: 4,
          kind: 'variable',
          name: 'Partitions',
          qualifiedName: 'Partitions',
          signature: 'var Partitions     = 3',
          startLine: 15,
          endLine: 15,
          exported: true,
        },
        {
          id: 5,
          kind: 'variable',
          name: 'Rotated',
          qualifiedName: 'Rotated',
          signature: 'var Rotated        = "orders.v1"',
          startLine: 16,
          endLine: 16,
          exported: true,
        },
        {
          id: 6,
          kind: 'variable',
          name: 'Audit',
          qualifiedName: 'Audit',
          signature: 'var Audit          = "audit"',
          startLine: 17,
          endLine: 17,
          exported: true,
        },
        {
          id: 7,
          kind: 'variable',
          name: 'Brokers',
          qualifiedName: 'Brokers',
          signature: 'var Brokers        = os.Getenv("KAFKA_BROKERS")',
          startLine: 18,
          endLine: 18,
          exported: true,
        },
        {
          id: 8,
          kind: 'const',
          name: 'Group',
          qualifiedName: 'Group',
          signature: 'const Group = "order-workers"',
          startLine: 21,
          endLine: 21,
          exported: true,
        },
        {
          id: 9,
          kind: 'function',
          name: 'topicFromEnv',
          qualifiedName: 'topicFromEnv',
          signature: 'func topicFromEnv() string',
          startLine: 23,
          endLine: 28,
          bodyStartLine: 24,
          bodyEndLine: 27,
          exported: false,
        },
        {
          id: 10,
          kind: 'function',
          name: 'envOr',
          qualifiedName: 'envOr',
          signature: 'func envOr(key, fallback string) string',
          startLine: 30,
          endLine: 35,
          bodyStartLine: 31,
          bodyEndLine: 34,
          exported: false,
        },
        {
          id: 11,
          kind: 'function',
          name: 'init',
          qualifiedName: 'init',
          signature: 'func init()',
          startLine: 37,
          endLine: 42,
          bodyStartLine: 38,
          bodyEndLine: 41,
          exported: false,
        },
      ],
      imports: [
        { source: 'flag', line: 5 },
        { source: 'os', line: 6 },
      ],
      contracts: [],
      // Not here: BrokerPassword (a credential-like name), Partitions (no string), Rotated (reassigned in
      // init), Audit (its address goes to flag.StringVar), Brokers (an env read without a default).
      properties: [
        { key: 'go:broker.Topic', value: 'orders', line: 11 },
        { key: 'go:broker.RetryTopic', value: 'orders.retry', line: 12 },
        { key: 'go:broker.DeadLetters', value: 'orders.dead', line: 13 },
        { key: 'go:broker.Group', value: 'order-workers', line: 21 },
      ],
    });
  });

  test('config.go: an unexported package-level var of package main', async () => {
    expect(await extract('crossfile/config.go')).toEqual({
      language: 'go',
      package: 'main',
      symbols: [
        {
          id: 0,
          kind: 'variable',
          name: 'localTopic',
          qualifiedName: 'localTopic',
          signature: 'var localTopic = "orders.local"',
          startLine: 3,
          endLine: 3,
          exported: false,
        },
      ],
      imports: [],
      contracts: [],
      properties: [{ key: 'go:main.localTopic', value: 'orders.local', line: 3 }],
    });
  });

  test('publisher.go: topics named in other files become ${go:…} placeholders, keyed by package name', async () => {
    expect(await extract('crossfile/publisher.go')).toEqual({
      language: 'go',
      package: 'main',
      symbols: [
        {
          id: 0,
          kind: 'struct',
          name: 'publisher',
          qualifiedName: 'publisher',
          signature: 'type publisher struct',
          startLine: 12,
          endLine: 14,
          exported: false,
        },
        {
          id: 1,
          kind: 'method',
          name: 'placed',
          qualifiedName: 'publisher.placed',
          signature: 'func (p *publisher) placed(body []byte)',
          startLine: 16,
          endLine: 18,
          bodyStartLine: 17,
          bodyEndLine: 17,
          exported: false,
          parent: 0,
        },
        {
          id: 2,
          kind: 'method',
          name: 'audited',
          qualifiedName: 'publisher.audited',
          signature: 'func (p *publisher) audited(body []byte)',
          startLine: 20,
          endLine: 22,
          bodyStartLine: 21,
          bodyEndLine: 21,
          exported: false,
          parent: 0,
        },
        {
          id: 3,
          kind: 'method',
          name: 'local',
          qualifiedName: 'publisher.local',
          signature: 'func (p *publisher) local(body []byte)',
          startLine: 24,
          endLine: 26,
          bodyStartLine: 25,
          bodyEndLine: 25,
          exported: false,
          parent: 0,
        },
        {
          id: 4,
          kind: 'function',
          name: 'consume',
          qualifiedName: 'consume',
          signature:
            'func consume(ctx context.Context, group sarama.ConsumerGroup, h sarama.ConsumerGroupHandler) error',
          startLine: 28,
          endLine: 30,
          bodyStartLine: 29,
          bodyEndLine: 29,
          exported: false,
        },
      ],
      imports: [
        { source: 'context', line: 4 },
        { source: 'github.com/IBM/sarama', line: 6 },
        { source: 'example.com/shop/orders/broker', line: 8 },
        { source: 'example.com/shop/platform/eventbus', names: ['bus'], line: 9 },
      ],
      contracts: [
        {
          kind: 'topic_producer',
          topic: '${go:broker.Topic}',
          symbol: 1,
          line: 17,
          confidence: 'heuristic',
          via: 'sarama ProducerMessage',
        },
        {
          // Imported as `bus`: the key is the package's own name, the import path's last element.
          kind: 'topic_producer',
          topic: '${go:eventbus.AuditTopic}',
          symbol: 2,
          line: 21,
          confidence: 'heuristic',
          via: 'sarama ProducerMessage',
        },
        {
          kind: 'topic_producer',
          topic: '${go:main.localTopic}',
          symbol: 3,
          line: 25,
          confidence: 'heuristic',
          via: 'sarama ProducerMessage',
        },
        {
          kind: 'topic_consumer',
          topic: '${go:broker.RetryTopic}',
          symbol: 4,
          line: 29,
          confidence: 'heuristic',
          via: 'sarama ConsumerGroup',
        },
        {
          kind: 'topic_consumer',
          topic: 'payments.settled',
          symbol: 4,
          line: 29,
          confidence: 'exact',
          via: 'sarama ConsumerGroup',
        },
      ],
    });
  });

  test('parameters, fields, loop and channel variables, named results and valueless locals are no references', async () => {
    const facts = await extract('negative/crossfile_lookalikes.go');
    expect(facts.contracts).toEqual([]);
    expect(facts.properties).toBeUndefined();
  });

  test('the reconciler resolves ${go:…} topics: own package in the same folder, imports in the root, then the workspace', async () => {
    const files = [
      indexed('orders', 'broker/topics.go', await extract('crossfile/broker/topics.go')),
      indexed('orders', 'config.go', await extract('crossfile/config.go')),
      indexed('orders', 'publisher.go', await extract('crossfile/publisher.go')),
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
      indexed('orders', 'publisher.go', await extract('crossfile/publisher.go')),
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

describe('go routes behind a deployment prefix', () => {
  test('routes_base.go: a base that is empty or read from the environment leaves the literal suffix', async () => {
    const facts = await extract('routes_base.go');
    expect(facts.contracts).toEqual([
      {
        kind: 'http_route',
        method: 'GET',
        path: '/cart',
        symbol: 1,
        line: 17,
        via: 'gorilla/mux HandleFunc',
      },
      {
        kind: 'http_route',
        method: 'HEAD',
        path: '/cart',
        symbol: 1,
        line: 17,
        via: 'gorilla/mux HandleFunc',
      },
      {
        kind: 'http_route',
        method: 'DELETE',
        path: '/cart/{id}',
        symbol: 1,
        line: 18,
        via: 'gorilla/mux HandleFunc',
      },
      {
        kind: 'http_route',
        method: 'ANY',
        path: '/healthz',
        symbol: 1,
        line: 19,
        via: 'gorilla/mux HandleFunc',
      },
      {
        kind: 'http_route',
        method: 'GET',
        path: '/v1/orders',
        symbol: 1,
        line: 21,
        via: 'gorilla/mux HandleFunc',
      },
    ]);
    // baseURL is reassigned in main: it has no single value to export.
    expect(facts.properties).toBeUndefined();
  });

  test('a base that may be a real path, a parameter or a call is no deployment prefix', async () => {
    const facts = await extractSource(`package main

import (
	"net/http"
	"os"

	"github.com/gorilla/mux"
)

var shop = "/shop"

func routes(r *mux.Router, base string, h http.HandlerFunc) {
	r.HandleFunc(base+"/cart", h)
	mount := "/api"
	if os.Getenv("MOUNTED") != "" {
		mount = os.Getenv("MOUNT")
	}
	r.HandleFunc(mount+"/orders", h)
	r.HandleFunc(os.Getenv("PREFIX")+"cart", h)
	r.HandleFunc(prefix()+"/items", h)
	r.HandleFunc(shop+"/basket", h)
}

func prefix() string { return os.Args[0] }
`);
    expect(facts.contracts).toEqual([
      {
        kind: 'http_route',
        method: 'ANY',
        path: '/shop/basket',
        symbol: 1,
        line: 21,
        via: 'gorilla/mux HandleFunc',
      },
    ]);
  });
});
