/**
 * Events through the built CLI on a small compose workspace: a Python pika producer whose exchange comes
 * from the compose environment, Go and Node consumers bound with topic-exchange patterns, and Quarkus
 * services whose MicroProfile channels are mapped to a Kafka topic in `application.properties`, and a Dapr
 * subscription file in a deploy folder that subscribes one of them.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempEnv } from '../helpers/cli.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/meshes/events-on-brokers');

interface GraphJson {
  readonly nodes: readonly {
    readonly name: string;
    readonly root: string | null;
    readonly broker?: string;
  }[];
  readonly edges: readonly {
    readonly from: number;
    readonly to: number;
    readonly kind: string;
    readonly file: string;
    readonly line: number;
    readonly routing_key?: string;
    readonly queue?: string;
  }[];
  readonly unresolved_topics: {
    readonly count: number;
    readonly topics: readonly { readonly file: string; readonly line: number; readonly topic: string }[];
  };
}

let dir: string;
let env: Record<string, string>;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-events-'));
  cpSync(FIXTURE, dir, { recursive: true });
  env = tempEnv();
  expect(runCli(['init', '--auto', '--workspace', dir], { env }).status).toBe(0);
});

const cli = (args: string[]): string => {
  const result = runCli([...args, '--workspace', dir], { env });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
};

/** The table rows of an impact answer, without the row number. */
const rows = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => /^\| \d+ \|/.test(line))
    .map((line) => line.replace(/^\| \d+ \| /, '| '));

describe('events between services, resolved through configuration and bindings', () => {
  test('topic edges carry the broker, the routing or binding key and the queue; a Dapr subscription file outside every root subscribes the app it scopes; an argv exchange is unresolved', () => {
    const out = path.join(dir, 'graph.json');
    cli(['graph', '--format', 'json', '-o', out]);
    const graph = JSON.parse(readFileSync(out, 'utf8')) as GraphJson;
    const topicRows = graph.edges
      .filter((e) => e.kind === 'produces' || e.kind === 'consumes')
      .map((e) => {
        const [from, topic] = [graph.nodes[e.from], graph.nodes[e.to]];
        const detail = [e.routing_key && `key=${e.routing_key}`, e.queue && `queue=${e.queue}`];
        return [from?.root, e.kind, `${topic?.name} [${topic?.broker}]`, `${e.file}:${e.line}`, ...detail]
          .filter(Boolean)
          .join(' ');
      })
      .sort();
    expect(topicRows).toEqual([
      'audit consumes topic_logs [amqp] audit/index.js:9 key=# queue=audit-all',
      'billing consumes invoices.requested [dapr] deploy/dapr/subscriptions.yaml:7',
      'billing consumes orders.placed [channel] billing/src/main/java/shop/billing/Invoicing.java:9',
      'emitter produces topic_logs [amqp] emitter/app.py:14 key=kern.critical',
      'kernel-watch consumes topic_logs [amqp] kernel-watch/main.go:17 key=kern.*',
      'mail consumes topic_logs [amqp] mail/index.js:8 key=*.warning queue=mail-warnings',
      'orders produces orders.placed [channel] orders/src/main/java/shop/orders/OrderEvents.java:12',
    ]);
    expect(graph.unresolved_topics.count).toBe(1);
    expect(graph.unresolved_topics.topics.map((t) => `${t.file}:${t.line} ${t.topic}`)).toEqual([
      'emitter/app.py:19 sys.argv[1]',
    ]);
  });

  test('impact of an exchange with a routing key: its producer and only the consumers whose binding matches', () => {
    const text = cli(['contracts', 'impact', '--target', 'topic_logs', '--routing-key', 'kern.critical']);
    expect(text).toContain(
      'Routing key `kern.critical`: producers publishing with another key and 1 consumer(s) whose binding key does not match it are left out.',
    );
    expect(rows(text)).toEqual([
      '| INTERNAL | producer | `emit_kernel_alert` | emitter | `emitter/app.py:14` | heuristic | topic_logs (key kern.critical) |',
      '| EXTERNAL | topic | `topic_logs` | — | `—` | exact | topic_logs |',
      '| EXTERNAL | consumer | `main` | audit | `audit/index.js:9` | exact | topic_logs (key #, queue audit-all) |',
      '| EXTERNAL | consumer | `main` | kernel-watch | `kernel-watch/main.go:17` | exact | topic_logs (key kern.*) |',
    ]);
    // Without the key every bound consumer is listed.
    expect(rows(cli(['contracts', 'impact', '--target', 'topic_logs']))).toHaveLength(5);
  });

  test('impact of a topic two MicroProfile channels are mapped to in their services configuration', () => {
    expect(rows(cli(['contracts', 'impact', '--target', 'orders.placed']))).toEqual([
      '| INTERNAL | producer | `OrderEvents.emitter` | orders | `orders/src/main/java/shop/orders/OrderEvents.java:12` | heuristic | orders.placed |',
      '| EXTERNAL | topic | `orders.placed` | — | `—` | exact | orders.placed |',
      '| EXTERNAL | consumer | `Invoicing.onOrderPlaced` | billing | `billing/src/main/java/shop/billing/Invoicing.java:9` | heuristic | orders.placed |',
    ]);
  });

  test('the topology names the broker of each topic', () => {
    const text = cli(['graph', 'visualize', '--format', 'mermaid']);
    expect(text).toMatch(/t\d+\[\("topic_logs · amqp"\)\]/);
    expect(text).toMatch(/t\d+\[\("orders\.placed · channel"\)\]/);
  });

  test('admin status lists the producer whose exchange is only known at run time', () => {
    const text = cli(['admin', 'status']);
    expect(text).toContain(
      '**Unresolved topics:** 1 producer(s) or consumer(s) name a destination the index cannot resolve (kept, not dropped):',
    );
    expect(text).toContain(
      '- `emitter/app.py:19` producer `sys.argv[1]` (pika basic_publish) — destination is an expression the index cannot evaluate',
    );
  });
});
