// MeshMCP's synthetic shape (`scripts/bench/gen_synthetic.py --contracts`, reference §7.4): R service roots
// `services/svc-<n>/src/gen_<idx>.<ext>`, tiny templated files rotating over Rust, Go, Python, TypeScript and
// Java, plus the contracts mix. Content is a function of the index only (as in MeshMCP); the seed only
// decides the fake secrets, so trees of different seeds still differ.

const LANGS = ['rust', 'go', 'python', 'typescript', 'java'];
const EXT = { rust: 'rs', go: 'go', python: 'py', typescript: 'ts', java: 'java' };

/**
 * @param {{files: number, roots: number, rng: ReturnType<import('./rng.mjs').createRng>, emit: Function}} o
 * `emit(path, lines, root, symbols, language)` records one file; symbols carry 1-based lines.
 */
export function generateSmall({ files: n, roots: r, rng, emit, truth }) {
  const rootOf = (idx) => Math.min(r - 1, Math.floor((idx * r) / n));
  const rootName = (idx) => `services/svc-${rootOf(idx)}`;
  // Topics: Python files 10m+2 and 10m+7 produce `orders-<m>`; Java files consume a topic half-way round,
  // so producers and consumers sit in different roots.
  const topics = Math.max(1, Math.ceil(n / 10));
  const shift = Math.floor(topics / 2);
  const crossTopic = (idx) => (Math.floor(idx / 10) + shift) % topics;
  const extras = { proto: 0, yaml: 0, markdown: 0, shared: 0 };

  for (let idx = 0; idx < n; idx++) {
    const lang = LANGS[idx % 5];
    const root = rootName(idx);
    const file = `${root}/src/gen_${idx}.${EXT[lang]}`;
    const syms = [];
    let lines;
    const sym = (name, kind, line) => syms.push({ name, kind, line });
    if (lang === 'rust') {
      lines = [
        `// Generated service ${idx}.`,
        `pub struct Service${idx} {`,
        '    id: u64,',
        '    name: String,',
        '}',
        '',
        `impl Service${idx} {`,
        '    pub fn new(id: u64) -> Self {',
        `        Self { id, name: String::from("service-${idx}") }`,
        '    }',
        '',
        `    pub fn handle_${idx}(&self, input: &str) -> String {`,
        '        format!("{}:{}:{}", self.name, self.id, input)',
        '    }',
        '}',
      ];
      sym(`Service${idx}`, 'struct', 2);
      sym('new', 'method', 8);
      sym(`handle_${idx}`, 'method', 12);
    } else if (lang === 'go') {
      // Half of the Go files call the gRPC service a TypeScript file serves in another root.
      const target = 10 * crossTopic(idx) + 3;
      const client = idx % 10 === 1 && target < n;
      lines = [`package pkg${idx}`, '', 'import (', '\t"context"', '\t"fmt"'];
      if (client)
        lines.push('', '\t"google.golang.org/grpc"', '', `\tpb "example.com/bench/gen/svc${target}"`);
      lines.push(
        ')',
        '',
        `// Handler${idx} handles the requests of shard ${idx}.`,
        `type Handler${idx} struct {`,
        '\tid   int',
        '\tname string',
        '}',
        '',
        `// NewHandler${idx} builds a Handler${idx}.`,
        `func NewHandler${idx}(id int) *Handler${idx} {`,
        `\treturn &Handler${idx}{id: id, name: "handler-${idx}"}`,
        '}',
        '',
        '// Handle processes one request.',
        `func (h *Handler${idx}) Handle(ctx context.Context, input string) (string, error) {`,
        '\treturn fmt.Sprintf("%s:%d:%s", h.name, h.id, input), nil',
        '}',
      );
      sym(`Handler${idx}`, 'struct', lines.indexOf(`type Handler${idx} struct {`) + 1);
      sym(
        `NewHandler${idx}`,
        'function',
        lines.indexOf(`func NewHandler${idx}(id int) *Handler${idx} {`) + 1,
      );
      sym('Handle', 'method', lines.length - 2);
      if (client) {
        lines.push(
          '',
          `// CallSvc${target} asks Svc${target} for one item.`,
          `func (h *Handler${idx}) CallSvc${target}(ctx context.Context, conn *grpc.ClientConn) error {`,
          `\tclient := pb.NewSvc${target}Client(conn)`,
          `\t_, err := client.Get${target}(ctx, &pb.Req${target}{Id: h.name})`,
          '\treturn err',
          '}',
        );
        sym(`CallSvc${target}`, 'method', lines.length - 4);
        truth.grpc.push({
          kind: 'calls',
          service: `Svc${target}`,
          fullName: `bench.svc${target}.Svc${target}`,
          method: `Get${target}`,
          root,
          file,
          line: lines.length - 2,
        });
      }
    } else if (lang === 'python') {
      const topic = `orders-${Math.floor(idx / 10)}`;
      lines = [
        `"""Generated worker ${idx}."""`,
        'from confluent_kafka import Producer',
        '',
        '',
        `class Worker${idx}:`,
        `    """Processes the jobs of shard ${idx}."""`,
        '',
        `    def __init__(self, name: str = "worker-${idx}"):`,
        '        self.name = name',
        '        self.producer = Producer({"bootstrap.servers": "kafka:9092"})',
        '',
        '    def handle(self, payload: str) -> str:',
        `        self.producer.produce("${topic}", value=payload.encode())`,
        '        return f"{self.name}:{payload}"',
      ];
      sym(`Worker${idx}`, 'class', 5);
      sym('__init__', 'method', 8);
      sym('handle', 'method', 12);
      truth.topics.push({ kind: 'produces', topic, root, file, line: 13 });
    } else if (lang === 'typescript') {
      lines = [
        "import { Controller } from '@nestjs/common';",
        "import { GrpcMethod } from '@nestjs/microservices';",
        '',
        `export interface Req${idx} {`,
        '  id: string;',
        '}',
        '',
        `export interface Res${idx} {`,
        '  id: string;',
        '  value: string;',
        '}',
        '',
        '@Controller()',
        `export class Component${idx} {`,
        '  private readonly name: string;',
        '',
        `  constructor(name = 'component-${idx}') {`,
        '    this.name = name;',
        '  }',
        '',
        `  @GrpcMethod('Svc${idx}', 'Get${idx}')`,
        `  get${idx}(req: Req${idx}): Res${idx} {`,
        '    return { id: req.id, value: this.name };',
        '  }',
        '',
        '  handle(input: string): string {',
        '    return `${this.name}:${input}`;',
        '  }',
        '}',
      ];
      sym(`Req${idx}`, 'interface', 4);
      sym(`Res${idx}`, 'interface', 8);
      sym(`Component${idx}`, 'class', 14);
      sym(`get${idx}`, 'method', 22);
      sym('handle', 'method', 26);
      truth.grpc.push({
        kind: 'implements',
        service: `Svc${idx}`,
        fullName: `bench.svc${idx}.Svc${idx}`,
        method: `Get${idx}`,
        root,
        file,
        line: 21,
      });
      const proto = `${root}/proto/svc_${idx}.proto`;
      emit(
        proto,
        [
          'syntax = "proto3";',
          '',
          `package bench.svc${idx};`,
          '',
          `option go_package = "example.com/bench/gen/svc${idx}";`,
          '',
          `service Svc${idx} {`,
          `  rpc Get${idx}(Req${idx}) returns (Res${idx});`,
          '}',
          '',
          `message Req${idx} {`,
          '  string id = 1;',
          '}',
          '',
          `message Res${idx} {`,
          '  string id = 1;',
          '  string value = 2;',
          '}',
        ],
        root,
        [
          { name: `Svc${idx}`, kind: 'grpc_service', line: 7 },
          { name: `Get${idx}`, kind: 'rpc', line: 8 },
          { name: `Req${idx}`, kind: 'message', line: 11 },
          { name: `Res${idx}`, kind: 'message', line: 15 },
        ],
        'proto',
      );
      extras.proto++;
    } else {
      const topic = `orders-${crossTopic(idx)}`;
      const suffix = Math.floor(idx / 50) === 0 ? '' : String(Math.floor(idx / 50));
      lines = [
        `package pkg${idx};`,
        '',
        'import com.acme.common.Shared;',
        'import org.springframework.kafka.annotation.KafkaListener;',
        '',
        `/** Handles the requests of shard ${idx}. */`,
        `public class Handler${idx} {`,
        '    private final String name;',
        '    private final Shared shared = new Shared();',
        '',
        `    public Handler${idx}(String name) {`,
        '        this.name = name;',
        '    }',
        '',
        '    public String handle(String input) {',
        '        return name + ":" + input + shared;',
        '    }',
        '',
        `    @KafkaListener(topics = "${topic}", groupId = "handler-${idx}")`,
        '    public void onOrder(String payload) {',
        '        handle(payload);',
        '    }',
        '}',
      ];
      sym(`Handler${idx}`, 'class', 7);
      sym(`Handler${idx}`, 'constructor', 11);
      sym('handle', 'method', 15);
      sym('onOrder', 'method', 20);
      truth.topics.push({ kind: 'consumes', topic, root, file, line: 19 });
      // A hot homonym bucket, as MeshMCP: one `Shared` class per 50 indexes, in a different package.
      if (idx % 50 === 4) {
        emit(
          `${root}/src/common${suffix || '0'}/Shared.java`,
          [
            `package com.acme.common${suffix};`,
            '',
            '/** Shared state. */',
            'public class Shared {',
            '    public String toString() {',
            '        return "shared";',
            '    }',
            '}',
          ],
          root,
          [{ name: 'Shared', kind: 'class', line: 4 }],
          'java',
        );
        extras.shared++;
      }
    }
    emit(file, lines, root, syms, lang);

    if (idx % 100 === 0) {
      emit(
        `${root}/config/application-${idx}.yml`,
        [
          `# Spring settings of shard ${idx}.`,
          'server:',
          `  port: ${8000 + (idx % 1000)}`,
          'spring:',
          '  application:',
          `    name: svc-${idx}`,
          '  datasource:',
          `    url: jdbc:postgresql://db:5432/svc${idx}`,
          `    username: svc${idx}`,
          `    password: fake-${rng.int(1e9).toString(36)}-Pa55`,
          'shop:',
          '  retry:',
          '    delays: [100, 200, 400]',
          '    ratio: 1.5',
        ],
        root,
        [],
        'yaml',
      );
      emit(
        `${root}/docs/README_${idx}.md`,
        [
          `# Shard ${idx}`,
          '',
          `Serves \`Svc${idx}.Get${idx}\` and publishes to topic \`orders-${idx}\`.`,
          '',
          '## Operations',
          '',
          `Restart the shard with \`svc-${idx} restart\`; the consumer group resumes from its last offset.`,
        ],
        root,
        [],
        'markdown',
      );
      extras.yaml++;
      extras.markdown++;
    }
  }
  return {
    config: ['[workspace]', 'roots = ["services/*"]', ''],
    extras,
  };
}
