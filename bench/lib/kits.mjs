// Per-language templates of the realistic shape. A kit turns names into source text: a generic class (fields,
// constructor, documented methods with bodies), optionally a top-level function, and each contract idiom
// the language's services use (gRPC server and client, topic producer and consumer, HTTP routes and calls).
// Every unit records its declarations (`sym`) and contract evidence (`mark`) with the line they land on.
import { methodBody, methodWords, SYNTAX } from './bodies.mjs';
import { PHRASES, NOUNS, VERBS, camel, cap, pascal, snake } from './words.mjs';

export class Unit {
  constructor() {
    this.lines = [];
    this.symbols = [];
    this.marks = [];
  }
  add(...lines) {
    this.lines.push(...lines);
    return this;
  }
  /** Declares `name` on the next line added. */
  sym(name, kind) {
    this.symbols.push({ name, kind, line: this.lines.length });
    return this;
  }
  /** Contract evidence on the next line added. */
  mark(record) {
    this.marks.push({ ...record, line: this.lines.length });
    return this;
  }
}

const words = (pascalName) =>
  pascalName
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ');
export const kebabOf = (name) => words(name).join('-');
export const snakeOf = (name) => words(name).join('_');
const doc = (rng) => rng.pick(PHRASES);
const methodCount = (rng) => rng.range(2, 7);
const bodyLines = (rng) => rng.range(3, 14);

/** Distinct method word pairs for one class. */
function methodsOf(rng, n) {
  const seen = new Set();
  const out = [];
  while (out.length < n) {
    const w = methodWords(rng);
    const key = w.join('-');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(w);
  }
  return out;
}

/** A route path with `{id}` turned into the framework's spelling. */
const colon = (path) => path.replace(/\{(\w+)\}/g, ':$1');

// ---------------------------------------------------------------------------------------------- TypeScript

const typescript = {
  ext: 'ts',
  path: (ctx, name) => `src/${ctx.module}/${kebabOf(name)}.ts`,
  header: (ctx) => [...ctx.importLines(), ''],
  footer: () => [],
  classUnit(ctx, name) {
    const { rng } = ctx;
    ctx.imp("import { Injectable, Logger } from '@nestjs/common';");
    ctx.imp("import { ConfigService } from '@nestjs/config';");
    const u = new Unit();
    const ms = methodsOf(rng, methodCount(rng)).map((w) => camel(w));
    u.add('/**', ` * ${name} ${doc(rng)}.`, ' */', '@Injectable()')
      .sym(name, 'class')
      .add(`export class ${name} {`);
    u.add(
      `  private readonly logger = new Logger(${name}.name);`,
      '  private readonly entries = new Map<string, number>();',
      '',
    );
    u.add('  constructor(private readonly config: ConfigService) {}');
    for (const m of ms) {
      u.add('', `  /** ${cap(m.replace(/([A-Z])/g, ' $1').toLowerCase())}; it ${doc(rng)}. */`).sym(
        m,
        'method',
      );
      u.add(
        `  async ${m}(input: string[]): Promise<number> {`,
        ...methodBody(
          'typescript',
          rng,
          '    ',
          bodyLines(rng),
          ms.filter((x) => x !== m),
        ),
        '  }',
      );
    }
    u.add('}');
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    const u = new Unit();
    if (rng.chance(0.5)) {
      u.add(`/** Options of ${name.replace(/Options$/, '')}. */`)
        .sym(name, 'interface')
        .add(`export interface ${name} {`);
      for (const n of rng.sample(NOUNS, rng.range(3, 8)))
        u.add(
          `  readonly ${n}${rng.chance(0.3) ? '?' : ''}: ${rng.pick(['string', 'number', 'boolean', 'string[]', 'Date'])};`,
        );
      u.add('}');
    } else {
      const fn = camel(methodWords(rng)) + cap(name);
      u.add(`/** ${cap(doc(rng))}. */`)
        .sym(fn, 'function')
        .add(`export function ${fn}(input: string[]): number {`);
      u.add(
        ...methodBody('typescript', rng, '  ', bodyLines(rng)).map((l) =>
          l.replace('this.logger.debug', 'console.debug'),
        ),
        '}',
      );
    }
    return u;
  },
  grpcServer(ctx, def, name) {
    const { rng } = ctx;
    ctx.imp("import { Controller, Logger } from '@nestjs/common';");
    ctx.imp("import { GrpcMethod } from '@nestjs/microservices';");
    ctx.imp(
      `import type { ${def.methods.flatMap((m) => [m.req, m.res]).join(', ')} } from '@acme/contracts/${def.pkgId}';`,
    );
    const u = new Unit();
    u.add('/**', ` * Serves ${def.fullName} over gRPC.`, ' */', '@Controller()')
      .sym(name, 'class')
      .add(`export class ${name} {`);
    u.add(`  private readonly logger = new Logger(${name}.name);`);
    for (const m of def.methods) {
      u.add('', `  /** ${m.name}: ${doc(rng)}. */`)
        .mark({ type: 'grpc_impl', def, method: m.name })
        .add(`  @GrpcMethod('${def.service}', '${m.name}')`);
      u.sym(camel(words(m.name)), 'method').add(
        `  async ${camel(words(m.name))}(request: ${m.req}): Promise<${m.res}> {`,
      );
      u.add(
        `    this.logger.debug(\`${m.name} \${JSON.stringify(request)}\`);`,
        `    return {} as ${m.res};`,
        '  }',
      );
    }
    u.add('}');
    return u;
  },
  grpcClient(ctx, def, methods, name) {
    const { rng } = ctx;
    ctx.imp("import { Inject, Injectable, OnModuleInit } from '@nestjs/common';");
    ctx.imp("import { ClientGrpc } from '@nestjs/microservices';");
    ctx.imp("import { lastValueFrom } from 'rxjs';");
    ctx.imp(`import type { ${def.service}Client } from '@acme/contracts/${def.pkgId}';`);
    const u = new Unit();
    const token = `${def.pkgId.toUpperCase()}_PACKAGE`;
    u.add('/**', ` * Calls ${def.fullName}; it ${doc(rng)}.`, ' */', '@Injectable()')
      .sym(name, 'class')
      .add(`export class ${name} implements OnModuleInit {`);
    u.add(
      `  private service!: ${def.service}Client;`,
      '',
      `  constructor(@Inject('${token}') private readonly client: ClientGrpc) {}`,
      '',
    );
    u.add(
      '  onModuleInit(): void {',
      `    this.service = this.client.getService<${def.service}Client>('${def.service}');`,
      '  }',
    );
    for (const m of methods) {
      const fn = camel(words(m.name));
      u.add('').sym(fn, 'method').add(`  async ${fn}(id: string): Promise<unknown> {`);
      u.mark({ type: 'grpc_call', def, method: m.name }).add(
        `    return lastValueFrom(this.service.${fn}({ id }));`,
        '  }',
      );
    }
    u.add('}');
    return u;
  },
  producer(ctx, topic, name) {
    ctx.imp("import { Inject, Injectable } from '@nestjs/common';");
    ctx.imp("import { Producer } from 'kafkajs';");
    const u = new Unit();
    u.add(`/** Publishes \`${topic}\` events. */`, '@Injectable()')
      .sym(name, 'class')
      .add(`export class ${name} {`);
    u.add("  constructor(@Inject('KAFKA_PRODUCER') private readonly producer: Producer) {}", '');
    u.sym('publish', 'method').add(
      '  async publish(key: string, event: Record<string, unknown>): Promise<void> {',
    );
    u.mark({ type: 'produce', topic }).add(
      `    await this.producer.send({ topic: '${topic}', messages: [{ key, value: JSON.stringify(event) }] });`,
      '  }',
      '}',
    );
    return u;
  },
  consumer(ctx, topic, name) {
    ctx.imp("import { Controller, Logger } from '@nestjs/common';");
    ctx.imp("import { EventPattern, Payload } from '@nestjs/microservices';");
    const u = new Unit();
    const fn = `on${pascal(topic.split(/[.-]/))}`;
    u.add(`/** Reacts to \`${topic}\`. */`, '@Controller()').sym(name, 'class').add(`export class ${name} {`);
    u.add(`  private readonly logger = new Logger(${name}.name);`, '');
    u.mark({ type: 'consume', topic }).add(`  @EventPattern('${topic}')`).sym(fn, 'method');
    u.add(
      `  async ${fn}(@Payload() event: Record<string, unknown>): Promise<void> {`,
      `    this.logger.log(\`received ${topic} \${JSON.stringify(event)}\`);`,
      '  }',
      '}',
    );
    return u;
  },
  routes(ctx, ctrl, name) {
    ctx.imp("import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';");
    const u = new Unit();
    u.add(`/** HTTP API of ${ctrl.resource}. */`, `@Controller('${ctrl.base.slice(1)}')`)
      .sym(name, 'class')
      .add(`export class ${name} {`);
    for (const r of ctrl.routes) {
      const deco = cap(r.method.toLowerCase());
      const sub = r.sub ? `'${colon(r.sub).slice(1)}'` : '';
      u.add('').mark({ type: 'route', route: r }).add(`  @${deco}(${sub})`).sym(r.handler, 'method');
      const params = [
        r.sub ? "@Param('id') id: string" : '',
        r.method === 'POST' || r.method === 'PUT' ? '@Body() body: unknown' : '',
      ]
        .filter(Boolean)
        .join(', ');
      u.add(
        `  ${r.handler}(${params}): Record<string, unknown> {`,
        `    return { ${r.sub ? 'id' : "resource: '" + ctrl.resource + "'"} };`,
        '  }',
      );
    }
    u.add('}');
    return u;
  },
  httpCaller(ctx, calls, name) {
    ctx.imp("import { Injectable } from '@nestjs/common';");
    const u = new Unit();
    u.add(`/** HTTP client of the ${calls[0].target} service. */`, '@Injectable()')
      .sym(name, 'class')
      .add(`export class ${name} {`);
    calls.forEach((c, k) => {
      const fn = `${c.verb}${k || ''}`;
      const url = '`${process.env.' + c.env + '}' + c.path.replace(/\{id\}/, '${id}') + '`';
      const init = c.method === 'GET' ? '' : `, { method: '${c.method}' }`;
      if (k) u.add('');
      u.sym(fn, 'method').add(`  async ${fn}(id: string): Promise<unknown> {`);
      u.mark({ type: 'http_call', call: c }).add(
        `    const response = await fetch(${url}${init});`,
        '    return response.json();',
        '  }',
      );
    });
    u.add('}');
    return u;
  },
};

// ---------------------------------------------------------------------------------------------- JavaScript

const javascript = {
  ext: 'js',
  path: (ctx, name) => `src/${ctx.module}/${kebabOf(name)}.js`,
  header: (ctx) => ["'use strict';", '', ...ctx.importLines(), ...(ctx.imports.length ? [''] : [])],
  footer: (ctx) => ['', `module.exports = { ${ctx.exports.join(', ')} };`],
  classUnit(ctx, name) {
    const { rng } = ctx;
    const u = new Unit();
    const ms = methodsOf(rng, methodCount(rng)).map((w) => camel(w));
    ctx.exports.push(name);
    u.add('/**', ` * ${name} ${doc(rng)}.`, ' */')
      .sym(name, 'class')
      .add(`class ${name} {`);
    u.add(
      '  constructor(options = {}) {',
      '    this.logger = options.logger ?? console;',
      '    this.limit = options.limit ?? 100;',
      '    this.entries = new Map();',
      '  }',
    );
    for (const m of ms) {
      u.add(
        '',
        '  /**',
        `   * ${cap(doc(rng))}.`,
        '   * @param {string[]} input',
        '   * @returns {Promise<number>}',
        '   */',
      ).sym(m, 'method');
      u.add(
        `  async ${m}(input) {`,
        ...methodBody(
          'javascript',
          rng,
          '    ',
          bodyLines(rng),
          ms.filter((x) => x !== m),
        ),
        '  }',
      );
    }
    u.add('}');
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    const u = new Unit();
    const fn = camel(methodWords(rng)) + name;
    ctx.exports.push(fn);
    u.add(`/** ${cap(doc(rng))}. */`)
      .sym(fn, 'function')
      .add(`function ${fn}(input) {`);
    u.add(
      ...methodBody('javascript', rng, '  ', bodyLines(rng)).map((l) =>
        l.replace('this.logger.debug', 'console.debug'),
      ),
      '}',
    );
    return u;
  },
  producer(ctx, topic, name) {
    ctx.imp("const { Kafka } = require('kafkajs');");
    ctx.exports.push(name);
    const u = new Unit();
    u.add(
      `const kafka = new Kafka({ clientId: '${ctx.svc.name}', brokers: (process.env.KAFKA_BROKERS ?? 'kafka:9092').split(',') });`,
      'const producer = kafka.producer();',
      '',
    );
    u.add(`/** Publishes \`${topic}\` events. */`).sym(name, 'class').add(`class ${name} {`);
    u.sym('publish', 'method').add('  async publish(key, event) {');
    u.mark({ type: 'produce', topic }).add(
      `    await producer.send({ topic: '${topic}', messages: [{ key, value: JSON.stringify(event) }] });`,
      '  }',
      '}',
    );
    return u;
  },
  consumer(ctx, topic, name) {
    ctx.imp("const { Kafka } = require('kafkajs');");
    ctx.exports.push(name);
    const u = new Unit();
    u.add(
      `const kafka = new Kafka({ clientId: '${ctx.svc.name}', brokers: ['kafka:9092'] });`,
      `const consumer = kafka.consumer({ groupId: '${ctx.svc.name}' });`,
      '',
    );
    u.add(`/** Reacts to \`${topic}\`. */`).sym(name, 'function').add(`async function ${name}(handle) {`);
    u.add('  await consumer.connect();')
      .mark({ type: 'consume', topic })
      .add(`  await consumer.subscribe({ topics: ['${topic}'], fromBeginning: false });`);
    u.add(
      '  await consumer.run({ eachMessage: async ({ message }) => handle(JSON.parse(message.value.toString())) });',
      '}',
    );
    return u;
  },
  routes(ctx, ctrl, name) {
    ctx.imp("const express = require('express');");
    ctx.exports.push(name);
    const u = new Unit();
    u.add(`/** Registers the HTTP API of ${ctrl.resource}. */`)
      .sym(name, 'function')
      .add(`function ${name}(app) {`, '  const router = express.Router();');
    for (const r of ctrl.routes) {
      u.mark({ type: 'route', route: r }).add(
        `  router.${r.method.toLowerCase()}('${colon(r.path)}', async (req, res) => {`,
      );
      u.add(`    res.json({ ${r.sub ? 'id: req.params.id' : `resource: '${ctrl.resource}'`} });`, '  });');
    }
    u.add('  app.use(router);', '}');
    return u;
  },
  httpCaller(ctx, calls, name) {
    ctx.exports.push(name);
    const u = new Unit();
    u.add(`/** HTTP client of the ${calls[0].target} service. */`).sym(name, 'class').add(`class ${name} {`);
    calls.forEach((c, k) => {
      const fn = `${c.verb}${k || ''}`;
      const url = '`${process.env.' + c.env + '}' + c.path.replace(/\{id\}/, '${id}') + '`';
      const init = c.method === 'GET' ? '' : `, { method: '${c.method}' }`;
      if (k) u.add('');
      u.sym(fn, 'method')
        .add(`  async ${fn}(id) {`)
        .mark({ type: 'http_call', call: c })
        .add(`    const response = await fetch(${url}${init});`, '    return response.json();', '  }');
    });
    u.add('}');
    return u;
  },
};

// ---------------------------------------------------------------------------------------------- Go

const goBody = (rng) => methodBody('go', rng, '\t', bodyLines(rng));
const go = {
  ext: 'go',
  path: (ctx, name) => `internal/${ctx.module}/${snakeOf(name)}.go`,
  header(ctx) {
    const std = ctx.imports.filter((i) => !i.includes('.')).sort();
    const ext = ctx.imports.filter((i) => i.includes('.')).sort();
    const block = [
      ...std.map((i) => `\t${i}`),
      ...(std.length && ext.length ? [''] : []),
      ...ext.map((i) => `\t${i}`),
    ];
    return [
      `// Package ${ctx.module} holds the ${ctx.module} logic of the ${ctx.svc.name} service.`,
      `package ${ctx.module}`,
      '',
      'import (',
      ...block,
      ')',
      '',
    ];
  },
  footer: () => [],
  classUnit(ctx, name) {
    const { rng } = ctx;
    ['"context"', '"log"', '"sync"'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`// ${name} ${doc(rng)}.`)
      .sym(name, 'struct')
      .add(
        `type ${name} struct {`,
        '\tmu      sync.Mutex',
        '\tlimit   int',
        '\tentries map[string]int',
        '}',
        '',
      );
    u.add(`// New${name} returns a ${name} holding at most limit entries.`).sym(`New${name}`, 'function');
    u.add(
      `func New${name}(limit int) *${name} {`,
      `\treturn &${name}{limit: limit, entries: make(map[string]int)}`,
      '}',
    );
    for (const w of methodsOf(rng, methodCount(rng))) {
      const m = pascal(w);
      u.add('', `// ${m} ${doc(rng)}.`)
        .sym(m, 'method')
        .add(
          `func (r *${name}) ${m}(ctx context.Context, input []string) (int, error) {`,
          '\tr.mu.Lock()',
          '\tdefer r.mu.Unlock()',
          ...goBody(rng),
          '}',
        );
    }
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    ctx.imp('"log"');
    const u = new Unit();
    const fn = camel(methodWords(rng)) + name;
    u.add(`// ${fn} ${doc(rng)}.`)
      .sym(fn, 'function')
      .add(`func ${fn}(input []string) (int, error) {`, ...goBody(rng), '}');
    return u;
  },
  grpcServer(ctx, def, name) {
    const { rng } = ctx;
    [
      '"context"',
      '"log"',
      '"google.golang.org/grpc"',
      '"google.golang.org/grpc/codes"',
      '"google.golang.org/grpc/status"',
      `${def.goAlias} "${def.goImport}"`,
    ].forEach((i) => ctx.imp(i));
    const a = def.goAlias;
    const u = new Unit();
    u.add(`// ${name} implements ${def.fullName}.`)
      .sym(name, 'struct')
      .add(`type ${name} struct {`, `\t${a}.Unimplemented${def.service}Server`, '\tlimit int', '}');
    for (const m of def.methods) {
      u.add('', `// ${m.name} ${doc(rng)}.`)
        .mark({ type: 'grpc_impl', def, method: m.name })
        .sym(m.name, 'method');
      u.add(
        `func (s *${name}) ${m.name}(ctx context.Context, req *${a}.${m.req}) (*${a}.${m.res}, error) {`,
        '\tif req == nil {',
        '\t\treturn nil, status.Error(codes.InvalidArgument, "empty request")',
        '\t}',
      );
      u.add(`\tlog.Printf("${m.name} %v", req)`, `\treturn &${a}.${m.res}{}, nil`, '}');
    }
    u.add('', `// Register${name} registers the service on srv.`).sym(`Register${name}`, 'function');
    u.add(
      `func Register${name}(srv *grpc.Server) {`,
      `\t${a}.Register${def.service}Server(srv, &${name}{limit: 100})`,
      '}',
    );
    return u;
  },
  grpcClient(ctx, def, methods, name) {
    ['"context"', '"google.golang.org/grpc"', `${def.goAlias} "${def.goImport}"`].forEach((i) => ctx.imp(i));
    const a = def.goAlias;
    const u = new Unit();
    u.add(`// ${name} calls ${def.fullName}.`)
      .sym(name, 'struct')
      .add(`type ${name} struct {`, `\tclient ${a}.${def.service}Client`, '}', '');
    u.add(`// New${name} dials nothing: conn is shared by the process.`).sym(`New${name}`, 'function');
    u.add(
      `func New${name}(conn *grpc.ClientConn) *${name} {`,
      `\treturn &${name}{client: ${a}.New${def.service}Client(conn)}`,
      '}',
    );
    for (const m of methods) {
      u.add('')
        .sym(m.name, 'method')
        .add(`func (c *${name}) ${m.name}(ctx context.Context, id string) error {`);
      u.mark({ type: 'grpc_call', def, method: m.name }).add(
        `\t_, err := c.client.${m.name}(ctx, &${a}.${m.req}{Id: id})`,
        '\treturn err',
        '}',
      );
    }
    return u;
  },
  producer(ctx, topic, name) {
    ['"context"', '"github.com/segmentio/kafka-go"'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`// ${name} publishes ${topic} events.`)
      .sym(name, 'struct')
      .add(`type ${name} struct {`, '\twriter *kafka.Writer', '}', '');
    u.add('// Publish writes one event.')
      .sym('Publish', 'method')
      .add(`func (p *${name}) Publish(ctx context.Context, key string, body []byte) error {`);
    u.mark({ type: 'produce', topic }).add(
      `\treturn p.writer.WriteMessages(ctx, kafka.Message{Topic: "${topic}", Key: []byte(key), Value: body})`,
      '}',
    );
    return u;
  },
  consumer(ctx, topic, name) {
    ['"context"', '"log"', '"github.com/segmentio/kafka-go"'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`// ${name} consumes ${topic}.`)
      .sym(name, 'struct')
      .add(`type ${name} struct {`, '\tbrokers []string', '}', '');
    u.add('// Run reads until ctx ends.')
      .sym('Run', 'method')
      .add(`func (c *${name}) Run(ctx context.Context) {`);
    u.mark({ type: 'consume', topic }).add(
      `\treader := kafka.NewReader(kafka.ReaderConfig{Brokers: c.brokers, GroupID: "${ctx.svc.name}", Topic: "${topic}"})`,
    );
    u.add(
      '\tdefer reader.Close()',
      '\tfor {',
      '\t\tmsg, err := reader.ReadMessage(ctx)',
      '\t\tif err != nil {',
      '\t\t\treturn',
      '\t\t}',
      '\t\tlog.Printf("offset %d", msg.Offset)',
      '\t}',
      '}',
    );
    return u;
  },
  routes(ctx, ctrl, name) {
    ctx.imp('"net/http"');
    const u = new Unit();
    u.add(`// ${name} serves the HTTP API of ${ctrl.resource}.`)
      .sym(name, 'struct')
      .add(`type ${name} struct {`, '\tlimit int', '}', '');
    u.add('// Register adds the routes to mux.')
      .sym('Register', 'method')
      .add(`func (h *${name}) Register(mux *http.ServeMux) {`);
    for (const r of ctrl.routes)
      u.mark({ type: 'route', route: r }).add(`\tmux.HandleFunc("${r.method} ${r.path}", h.${r.handler})`);
    u.add('}');
    for (const r of ctrl.routes) {
      u.add('')
        .sym(r.handler, 'method')
        .add(
          `func (h *${name}) ${r.handler}(w http.ResponseWriter, r *http.Request) {`,
          '\tw.WriteHeader(http.StatusOK)',
          '}',
        );
    }
    return u;
  },
  httpCaller(ctx, calls, name) {
    ['"fmt"', '"net/http"', '"os"', '"strings"'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`// ${name} calls the ${calls[0].target} service over HTTP.`)
      .sym(name, 'struct')
      .add(`type ${name} struct {`, '\thttp *http.Client', '}');
    calls.forEach((c, k) => {
      const fn = pascal([c.verb]) + (k || '');
      u.add('')
        .sym(fn, 'method')
        .add(
          `func (c *${name}) ${fn}(id string) (*http.Response, error) {`,
          `\tbase := strings.TrimSuffix(os.Getenv("${c.env}"), "/")`,
        );
      const path = c.path.replace('{id}', '%s');
      const args = c.path.includes('{id}') ? ', base, id' : ', base';
      if (c.method === 'GET')
        u.mark({ type: 'http_call', call: c }).add(
          `\treturn c.http.Get(fmt.Sprintf("%s${path}"${args}))`,
          '}',
        );
      else {
        u.mark({ type: 'http_call', call: c }).add(
          `\treq, err := http.NewRequest(http.Method${cap(c.method.toLowerCase())}, fmt.Sprintf("%s${path}"${args}), nil)`,
        );
        u.add('\tif err != nil {', '\t\treturn nil, err', '\t}', '\treturn c.http.Do(req)', '}');
      }
    });
    return u;
  },
};

// ---------------------------------------------------------------------------------------------- Java

const javaMethod = (rng, u, m, peers, ind = '    ') => {
  u.add('', `${ind}/**`, `${ind} * ${cap(doc(rng))}.`, `${ind} */`).sym(m, 'method');
  u.add(
    `${ind}public int ${m}(List<String> input) {`,
    ...methodBody('java', rng, ind + '    ', bodyLines(rng), peers),
    `${ind}}`,
  );
};
const java = {
  ext: 'java',
  path: (ctx, name) => `src/main/java/com/acme/${ctx.svc.pkg}/${ctx.module}/${name}.java`,
  header: (ctx) => [
    `package com.acme.${ctx.svc.pkg}.${ctx.module};`,
    '',
    ...[...ctx.imports].sort().map((i) => `import ${i};`),
    '',
  ],
  footer: () => [],
  classUnit(ctx, name) {
    const { rng } = ctx;
    [
      'java.util.List',
      'java.util.Map',
      'java.util.concurrent.ConcurrentHashMap',
      'org.slf4j.Logger',
      'org.slf4j.LoggerFactory',
      'org.springframework.stereotype.Service',
    ].forEach((i) => ctx.imp(i));
    const u = new Unit();
    const pub = ctx.first ? 'public ' : '';
    const ms = methodsOf(rng, methodCount(rng)).map((w) => camel(w));
    u.add('/**', ` * ${name} ${doc(rng)}.`, ' */', '@Service')
      .sym(name, 'class')
      .add(`${pub}class ${name} {`);
    u.add(
      `    private static final Logger LOG = LoggerFactory.getLogger(${name}.class);`,
      '',
      '    private final Map<String, Integer> entries = new ConcurrentHashMap<>();',
      '    private final int limit;',
      '',
    );
    u.add(`    ${pub}${name}(int limit) {`, '        this.limit = limit;', '    }');
    for (const m of ms)
      javaMethod(
        rng,
        u,
        m,
        ms.filter((x) => x !== m),
      );
    u.add('}');
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    const u = new Unit();
    if (rng.chance(0.5)) {
      u.add(`/** ${cap(doc(rng))}. */`)
        .sym(name, 'record')
        .add(`record ${name}(String id, long total, String ${rng.pick(NOUNS)}) {}`);
    } else {
      u.add(`/** States of ${name.replace(/State$/, '')}. */`)
        .sym(name, 'enum')
        .add(`enum ${name} {`);
      u.add(
        ...rng
          .sample(['PENDING', 'ACTIVE', 'SETTLED', 'FAILED', 'EXPIRED', 'ARCHIVED'], 4)
          .map((s, k, all) => `    ${s}${k < all.length - 1 ? ',' : ''}`),
        '}',
      );
    }
    return u;
  },
  grpcServer(ctx, def, name) {
    const { rng } = ctx;
    [
      'io.grpc.stub.StreamObserver',
      'net.devh.boot.grpc.server.service.GrpcService',
      `${def.javaPkg}.*`,
    ].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add('/**', ` * Serves ${def.fullName}.`, ' */', '@GrpcService')
      .sym(name, 'class')
      .add(`public class ${name} extends ${def.service}Grpc.${def.service}ImplBase {`);
    for (const m of def.methods) {
      const fn = camel(words(m.name));
      u.add('', `    /** ${cap(doc(rng))}. */`, '    @Override')
        .mark({ type: 'grpc_impl', def, method: m.name })
        .sym(fn, 'method');
      u.add(
        `    public void ${fn}(${m.req} request, StreamObserver<${m.res}> responseObserver) {`,
        `        responseObserver.onNext(${m.res}.getDefaultInstance());`,
        '        responseObserver.onCompleted();',
        '    }',
      );
    }
    u.add('}');
    return u;
  },
  grpcClient(ctx, def, methods, name) {
    ['io.grpc.ManagedChannel', `${def.javaPkg}.*`].forEach((i) => ctx.imp(i));
    const u = new Unit();
    const pub = ctx.first ? 'public ' : '';
    u.add(`/** Calls ${def.fullName}. */`)
      .sym(name, 'class')
      .add(
        `${pub}class ${name} {`,
        `    private final ${def.service}Grpc.${def.service}BlockingStub stub;`,
        '',
      );
    u.add(
      `    ${pub}${name}(ManagedChannel channel) {`,
      `        this.stub = ${def.service}Grpc.newBlockingStub(channel);`,
      '    }',
    );
    for (const m of methods) {
      const fn = camel(words(m.name));
      u.add('').sym(fn, 'method').add(`    public ${m.res} ${fn}(String id) {`);
      u.mark({ type: 'grpc_call', def, method: m.name }).add(
        `        return stub.${fn}(${m.req}.newBuilder().setId(id).build());`,
        '    }',
      );
    }
    u.add('}');
    return u;
  },
  producer(ctx, topic, name) {
    ['org.springframework.kafka.core.KafkaTemplate', 'org.springframework.stereotype.Component'].forEach(
      (i) => ctx.imp(i),
    );
    const u = new Unit();
    const pub = ctx.first ? 'public ' : '';
    u.add(`/** Publishes ${topic} events. */`, '@Component')
      .sym(name, 'class')
      .add(`${pub}class ${name} {`, '    private final KafkaTemplate<String, String> kafkaTemplate;', '');
    u.add(
      `    ${pub}${name}(KafkaTemplate<String, String> kafkaTemplate) {`,
      '        this.kafkaTemplate = kafkaTemplate;',
      '    }',
      '',
    );
    u.sym('publish', 'method')
      .add('    public void publish(String key, String payload) {')
      .mark({ type: 'produce', topic })
      .add(`        kafkaTemplate.send("${topic}", key, payload);`, '    }', '}');
    return u;
  },
  consumer(ctx, topic, name) {
    [
      'org.springframework.kafka.annotation.KafkaListener',
      'org.springframework.stereotype.Component',
    ].forEach((i) => ctx.imp(i));
    const u = new Unit();
    const pub = ctx.first ? 'public ' : '';
    const fn = `on${pascal(topic.split(/[.-]/))}`;
    u.add(`/** Reacts to ${topic}. */`, '@Component').sym(name, 'class').add(`${pub}class ${name} {`);
    u.mark({ type: 'consume', topic })
      .add(`    @KafkaListener(topics = "${topic}", groupId = "${ctx.svc.name}")`)
      .sym(fn, 'method');
    u.add(`    public void ${fn}(String payload) {`, '        System.out.println(payload);', '    }', '}');
    return u;
  },
  routes(ctx, ctrl, name) {
    ctx.imp('org.springframework.web.bind.annotation.*');
    const u = new Unit();
    const pub = ctx.first ? 'public ' : '';
    u.add(`/** HTTP API of ${ctrl.resource}. */`, '@RestController', `@RequestMapping("${ctrl.base}")`)
      .sym(name, 'class')
      .add(`${pub}class ${name} {`);
    for (const r of ctrl.routes) {
      const deco = `${cap(r.method.toLowerCase())}Mapping`;
      u.add('')
        .mark({ type: 'route', route: r })
        .add(`    @${deco}${r.sub ? `("${r.sub}")` : ''}`)
        .sym(r.handler, 'method');
      u.add(
        `    public String ${r.handler}(${r.sub ? '@PathVariable String id' : ''}) {`,
        `        return "${ctrl.resource}";`,
        '    }',
      );
    }
    u.add('}');
    return u;
  },
  httpCaller(ctx, calls, name) {
    ['java.net.URI', 'java.net.http.HttpRequest'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    const pub = ctx.first ? 'public ' : '';
    u.add(`/** HTTP client of the ${calls[0].target} service. */`)
      .sym(name, 'class')
      .add(`${pub}class ${name} {`);
    calls.forEach((c, k) => {
      const fn = `${c.verb}${k || ''}`;
      const url = c.path.includes('{id}')
        ? `System.getenv("${c.env}") + "${c.path.replace('/{id}', '/')}" + id`
        : `System.getenv("${c.env}") + "${c.path}"`;
      const verb =
        c.method === 'GET'
          ? '.GET()'
          : c.method === 'DELETE'
            ? '.DELETE()'
            : `.${c.method}(HttpRequest.BodyPublishers.noBody())`;
      u.add('').sym(fn, 'method').add(`    public HttpRequest ${fn}(String id) {`);
      u.mark({ type: 'http_call', call: c }).add(
        `        return HttpRequest.newBuilder(URI.create(${url}))`,
        `                ${verb}`,
        '                .build();',
        '    }',
      );
    });
    u.add('}');
    return u;
  },
};

// ---------------------------------------------------------------------------------------------- Kotlin

const kotlin = {
  ext: 'kt',
  path: (ctx, name) => `src/main/kotlin/com/acme/${ctx.svc.pkg}/${ctx.module}/${name}.kt`,
  header: (ctx) => [
    `package com.acme.${ctx.svc.pkg}.${ctx.module}`,
    '',
    ...[...ctx.imports].sort().map((i) => `import ${i}`),
    '',
  ],
  footer: () => [],
  classUnit(ctx, name) {
    const { rng } = ctx;
    [
      'java.util.concurrent.ConcurrentHashMap',
      'org.slf4j.LoggerFactory',
      'org.springframework.stereotype.Service',
    ].forEach((i) => ctx.imp(i));
    const u = new Unit();
    const ms = methodsOf(rng, methodCount(rng)).map((w) => camel(w));
    u.add('/**', ` * ${name} ${doc(rng)}.`, ' */', '@Service')
      .sym(name, 'class')
      .add(`class ${name}(private val limit: Int = 100) {`);
    u.add(
      `    private val logger = LoggerFactory.getLogger(${name}::class.java)`,
      '    private val entries = ConcurrentHashMap<String, Int>()',
    );
    for (const m of ms) {
      u.add('', `    /** ${cap(doc(rng))}. */`).sym(m, 'method');
      u.add(
        `    fun ${m}(input: List<String>): Int {`,
        ...methodBody(
          'kotlin',
          rng,
          '        ',
          bodyLines(rng),
          ms.filter((x) => x !== m),
        ),
        '    }',
      );
    }
    u.add('}');
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    const u = new Unit();
    if (rng.chance(0.5)) {
      u.add(`/** ${cap(doc(rng))}. */`)
        .sym(name, 'class')
        .add(`data class ${name}(val id: String, val total: Long, val ${rng.pick(NOUNS)}: String? = null)`);
    } else {
      const fn = camel(methodWords(rng)) + name;
      u.add(`/** ${cap(doc(rng))}. */`)
        .sym(fn, 'function')
        .add(`fun ${fn}(input: List<String>): Int {`);
      u.add(
        ...methodBody('kotlin', rng, '    ', bodyLines(rng)).map((l) =>
          l.replace('logger.debug', 'println').replace(/, total\)$/, ' + total)'),
        ),
        '}',
      );
    }
    return u;
  },
  grpcServer(ctx, def, name) {
    const { rng } = ctx;
    ctx.imp(`${def.javaPkg}.*`);
    const u = new Unit();
    u.add(`/** Serves ${def.fullName}. */`)
      .sym(name, 'class')
      .add(`class ${name} : ${def.service}GrpcKt.${def.service}CoroutineImplBase() {`);
    for (const m of def.methods) {
      const fn = camel(words(m.name));
      u.add('', `    /** ${cap(doc(rng))}. */`)
        .mark({ type: 'grpc_impl', def, method: m.name })
        .sym(fn, 'method');
      u.add(
        `    override suspend fun ${fn}(request: ${m.req}): ${m.res} {`,
        `        return ${m.res}.getDefaultInstance()`,
        '    }',
      );
    }
    u.add('}');
    return u;
  },
  grpcClient(ctx, def, methods, name) {
    ['io.grpc.ManagedChannel', `${def.javaPkg}.*`].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`/** Calls ${def.fullName}. */`)
      .sym(name, 'class')
      .add(
        `class ${name}(channel: ManagedChannel) {`,
        `    private val stub = ${def.service}GrpcKt.${def.service}CoroutineStub(channel)`,
      );
    for (const m of methods) {
      const fn = camel(words(m.name));
      u.add('').sym(fn, 'method').add(`    suspend fun ${fn}(id: String): ${m.res} {`);
      u.mark({ type: 'grpc_call', def, method: m.name }).add(
        `        return stub.${fn}(${m.req}.newBuilder().setId(id).build())`,
        '    }',
      );
    }
    u.add('}');
    return u;
  },
  producer(ctx, topic, name) {
    ['org.springframework.kafka.core.KafkaTemplate', 'org.springframework.stereotype.Component'].forEach(
      (i) => ctx.imp(i),
    );
    const u = new Unit();
    u.add(`/** Publishes ${topic} events. */`, '@Component')
      .sym(name, 'class')
      .add(`class ${name}(private val kafkaTemplate: KafkaTemplate<String, String>) {`);
    u.sym('publish', 'method')
      .add('    fun publish(key: String, payload: String) {')
      .mark({ type: 'produce', topic })
      .add(`        kafkaTemplate.send("${topic}", key, payload)`, '    }', '}');
    return u;
  },
  consumer(ctx, topic, name) {
    [
      'org.springframework.kafka.annotation.KafkaListener',
      'org.springframework.stereotype.Component',
    ].forEach((i) => ctx.imp(i));
    const u = new Unit();
    const fn = `on${pascal(topic.split(/[.-]/))}`;
    u.add(`/** Reacts to ${topic}. */`, '@Component').sym(name, 'class').add(`class ${name} {`);
    u.mark({ type: 'consume', topic })
      .add(`    @KafkaListener(topics = ["${topic}"], groupId = "${ctx.svc.name}")`)
      .sym(fn, 'method');
    u.add(`    fun ${fn}(payload: String) {`, '        println(payload)', '    }', '}');
    return u;
  },
  routes(ctx, ctrl, name) {
    ctx.imp('org.springframework.web.bind.annotation.*');
    const u = new Unit();
    u.add(`/** HTTP API of ${ctrl.resource}. */`, '@RestController', `@RequestMapping("${ctrl.base}")`)
      .sym(name, 'class')
      .add(`class ${name} {`);
    for (const r of ctrl.routes) {
      u.add('')
        .mark({ type: 'route', route: r })
        .add(`    @${cap(r.method.toLowerCase())}Mapping${r.sub ? `("${r.sub}")` : ''}`)
        .sym(r.handler, 'method');
      u.add(`    fun ${r.handler}(${r.sub ? '@PathVariable id: String' : ''}): String = "${ctrl.resource}"`);
    }
    u.add('}');
    return u;
  },
  httpCaller(ctx, calls, name) {
    // A declarative Spring Cloud OpenFeign client: its base URL comes from the environment (`${X_URL}`).
    ['org.springframework.cloud.openfeign.FeignClient', 'org.springframework.web.bind.annotation.*'].forEach(
      (i) => ctx.imp(i),
    );
    const u = new Unit();
    u.add(
      `/** HTTP client of the ${calls[0].target} service. */`,
      `@FeignClient(name = "${kebabOf(name)}", url = "\\\${${calls[0].env}}")`,
    );
    u.sym(name, 'interface').add(`interface ${name} {`);
    calls.forEach((c, k) => {
      const fn = `${c.verb}${k || ''}`;
      if (k) u.add('');
      u.mark({ type: 'http_call', call: c })
        .add(`    @${cap(c.method.toLowerCase())}Mapping("${c.path}")`)
        .sym(fn, 'method');
      const params = [
        c.path.includes('{id}') ? '@PathVariable("id") id: String' : '',
        c.method === 'POST' || c.method === 'PUT' ? '@RequestBody body: String' : '',
      ]
        .filter(Boolean)
        .join(', ');
      u.add(`    fun ${fn}(${params}): String`);
    });
    u.add('}');
    return u;
  },
};

// ---------------------------------------------------------------------------------------------- Scala

const scala = {
  ext: 'scala',
  path: (ctx, name) => `src/main/scala/com/acme/${ctx.svc.pkg}/${ctx.module}/${name}.scala`,
  header: (ctx) => [
    `package com.acme.${ctx.svc.pkg}.${ctx.module}`,
    '',
    ...[...ctx.imports].sort().map((i) => `import ${i}`),
    '',
  ],
  footer: () => [],
  classUnit(ctx, name) {
    const { rng } = ctx;
    ['org.slf4j.LoggerFactory', 'scala.collection.mutable'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    const ms = methodsOf(rng, methodCount(rng)).map((w) => camel(w));
    u.add(`/** ${name} ${doc(rng)}. */`)
      .sym(name, 'class')
      .add(`final class ${name}(limit: Int = 100) {`);
    u.add(
      '  private val logger = LoggerFactory.getLogger(getClass)',
      '  private val entries = mutable.Map.empty[String, Int]',
    );
    for (const m of ms) {
      u.add('', `  /** ${cap(doc(rng))}. */`).sym(m, 'method');
      u.add(
        `  def ${m}(input: Seq[String]): Int = {`,
        ...methodBody(
          'scala',
          rng,
          '    ',
          bodyLines(rng),
          ms.filter((x) => x !== m),
        ),
        '  }',
      );
    }
    u.add('}');
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    const u = new Unit();
    const kind = rng.int(3);
    if (kind === 0)
      u.add(`/** ${cap(doc(rng))}. */`)
        .sym(name, 'class')
        .add(`final case class ${name}(id: String, total: Long, ${rng.pick(NOUNS)}: Option[String] = None)`);
    else if (kind === 1) {
      u.add(`/** ${cap(doc(rng))}. */`)
        .sym(name, 'trait')
        .add(`trait ${name} {`);
      for (const w of methodsOf(rng, rng.range(2, 4))) u.add(`  def ${camel(w)}(id: String): Option[String]`);
      u.add('}');
    } else {
      u.add(`/** Defaults of ${name}. */`)
        .sym(name, 'object')
        .add(
          `object ${name} {`,
          `  val DefaultLimit: Int = ${rng.range(10, 500)}`,
          `  val Name: String = "${name}"`,
          '}',
        );
    }
    return u;
  },
};

// ---------------------------------------------------------------------------------------------- Python

const pyMethod = (rng, u, m, ind = '    ') => {
  u.add('')
    .sym(m, 'method')
    .add(
      `${ind}def ${m}(self, items: list[str]) -> int:`,
      `${ind}    """${cap(doc(rng))}."""`,
      ...methodBody('python', rng, ind + '    ', bodyLines(rng)),
    );
};
const python = {
  ext: 'py',
  path: (ctx, name) => `${ctx.svc.pkg}/${ctx.module}/${snakeOf(name)}.py`,
  header: (ctx) => {
    const from = ctx.imports.filter((i) => i.startsWith('from ')).sort();
    const plain = ctx.imports.filter((i) => i.startsWith('import ')).sort();
    return [
      `"""${cap(ctx.module)} logic of the ${ctx.svc.name} service."""`,
      'from __future__ import annotations',
      '',
      ...plain,
      ...from,
      '',
      'log = logging.getLogger(__name__)',
      '',
    ];
  },
  footer: () => [],
  unitGap: 2,
  classUnit(ctx, name) {
    const { rng } = ctx;
    ctx.imp('import logging');
    const u = new Unit();
    u.sym(name, 'class').add(
      `class ${name}:`,
      `    """${name} ${doc(rng)}."""`,
      '',
      '    def __init__(self, limit: int = 100) -> None:',
      '        self.limit = limit',
      '        self.entries: dict[str, int] = {}',
    );
    for (const w of methodsOf(rng, methodCount(rng))) pyMethod(rng, u, snake(w));
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    ctx.imp('import logging');
    const u = new Unit();
    const fn = `${snake(methodWords(rng))}_${snakeOf(name)}`;
    u.sym(fn, 'function').add(
      `def ${fn}(items: list[str]) -> int:`,
      `    """${cap(doc(rng))}."""`,
      ...methodBody('python', rng, '    ', bodyLines(rng)),
    );
    return u;
  },
  grpcServer(ctx, def, name) {
    const { rng } = ctx;
    ['import logging', `from ${def.pyModule} import ${def.stem}_pb2, ${def.stem}_pb2_grpc`].forEach((i) =>
      ctx.imp(i),
    );
    const u = new Unit();
    u.sym(name, 'class').add(
      `class ${name}(${def.stem}_pb2_grpc.${def.service}Servicer):`,
      `    """Implements ${def.fullName}."""`,
    );
    for (const m of def.methods) {
      u.add('')
        .mark({ type: 'grpc_impl', def, method: m.name })
        .sym(m.name, 'method')
        .add(`    def ${m.name}(self, request, context):`, `        """${cap(doc(rng))}."""`);
      u.add(`        log.info("${m.name} %s", request)`, `        return ${def.stem}_pb2.${m.res}()`);
    }
    u.add('', '')
      .sym(`register_${snakeOf(name)}`, 'function')
      .add(`def register_${snakeOf(name)}(server) -> None:`);
    u.add(`    ${def.stem}_pb2_grpc.add_${def.service}Servicer_to_server(${name}(), server)`);
    return u;
  },
  grpcClient(ctx, def, methods, name) {
    ctx.imp(`from ${def.pyModule} import ${def.stem}_pb2, ${def.stem}_pb2_grpc`);
    const u = new Unit();
    u.sym(name, 'class').add(
      `class ${name}:`,
      `    """Calls ${def.fullName}."""`,
      '',
      '    def __init__(self, channel) -> None:',
      `        self.stub = ${def.stem}_pb2_grpc.${def.service}Stub(channel)`,
    );
    for (const m of methods) {
      const fn = snake(words(m.name));
      u.add('')
        .sym(fn, 'method')
        .add(`    def ${fn}(self, item_id: str):`)
        .mark({ type: 'grpc_call', def, method: m.name });
      u.add(`        return self.stub.${m.name}(${def.stem}_pb2.${m.req}(id=item_id))`);
    }
    return u;
  },
  producer(ctx, topic, name) {
    ['import os', 'from confluent_kafka import Producer'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.sym(name, 'class').add(
      `class ${name}:`,
      `    """Publishes ${topic} events."""`,
      '',
      '    def __init__(self) -> None:',
      '        self.producer = Producer({"bootstrap.servers": os.environ.get("KAFKA_BROKERS", "kafka:9092")})',
      '',
    );
    u.sym('publish', 'method')
      .add('    def publish(self, key: str, payload: bytes) -> None:')
      .mark({ type: 'produce', topic })
      .add(`        self.producer.produce("${topic}", key=key, value=payload)`);
    return u;
  },
  consumer(ctx, topic, name) {
    ['from confluent_kafka import Consumer'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.sym(name, 'function').add(
      `def ${name}(handle) -> None:`,
      `    """Consumes ${topic} until interrupted."""`,
      `    consumer = Consumer({"group.id": "${ctx.svc.name}", "bootstrap.servers": "kafka:9092"})`,
    );
    u.mark({ type: 'consume', topic }).add(
      `    consumer.subscribe(["${topic}"])`,
      '    while True:',
      '        msg = consumer.poll(1.0)',
      '        if msg is not None:',
      '            handle(msg.value())',
    );
    return u;
  },
  routes(ctx, ctrl, name) {
    ctx.imp('from fastapi import APIRouter');
    const u = new Unit();
    u.add(`${name} = APIRouter(prefix="${ctrl.base}")`);
    for (const r of ctrl.routes) {
      u.add('', '')
        .mark({ type: 'route', route: r })
        .add(`@${name}.${r.method.toLowerCase()}("${r.sub}")`)
        .sym(r.handler, 'function');
      u.add(
        `async def ${r.handler}(${r.sub ? 'id: str' : ''}) -> dict:`,
        `    return {"resource": "${ctrl.resource}"}`,
      );
    }
    u.symbols.unshift({ name, kind: 'variable', line: 0 });
    return u;
  },
  httpCaller(ctx, calls, name) {
    ['import os', 'import httpx'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    const env = calls[0].env;
    u.add(`${env} = os.environ["${env}"]`, '', '');
    u.sym(name, 'class').add(`class ${name}:`, `    """HTTP client of the ${calls[0].target} service."""`);
    calls.forEach((c, k) => {
      const fn = `${snakeOf(cap(c.verb))}${k ? `_${k}` : ''}`;
      u.add('').sym(fn, 'method').add(`    def ${fn}(self, item_id: str):`);
      const path = c.path.replace('{id}', '{item_id}');
      u.mark({ type: 'http_call', call: c }).add(
        `        return httpx.${c.method.toLowerCase()}(f"{${env}}${path}")`,
      );
    });
    return u;
  },
};

// ---------------------------------------------------------------------------------------------- Rust

const rust = {
  ext: 'rs',
  path: (ctx, name) => `src/${ctx.module}/${snakeOf(name)}.rs`,
  header: (ctx) => [
    `//! ${cap(ctx.module)} logic of the ${ctx.svc.name} service.`,
    '',
    ...[...ctx.imports].sort().map((i) => `use ${i};`),
    '',
  ],
  footer: () => [],
  classUnit(ctx, name) {
    const { rng } = ctx;
    ctx.imp('std::collections::HashMap');
    const u = new Unit();
    u.add(`/// ${name} ${doc(rng)}.`, '#[derive(Debug, Default)]')
      .sym(name, 'struct')
      .add(`pub struct ${name} {`, '    limit: usize,', '    entries: HashMap<String, usize>,', '}', '');
    u.add(`impl ${name} {`, `    /// Creates a ${name} holding at most \`limit\` entries.`)
      .sym('new', 'method')
      .add(
        '    pub fn new(limit: usize) -> Self {',
        '        Self { limit, entries: HashMap::new() }',
        '    }',
      );
    for (const w of methodsOf(rng, methodCount(rng))) {
      const m = snake(w);
      u.add('', `    /// ${cap(doc(rng))}.`)
        .sym(m, 'method')
        .add(
          `    pub fn ${m}(&self, input: &[String]) -> usize {`,
          ...methodBody('rust', rng, '        ', bodyLines(rng)),
          '    }',
        );
    }
    u.add('}');
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    const u = new Unit();
    if (rng.chance(0.5)) {
      u.add(`/// ${cap(doc(rng))}.`)
        .sym(name, 'trait')
        .add(`pub trait ${name} {`);
      for (const w of methodsOf(rng, rng.range(2, 4)))
        u.add(`    fn ${snake(w)}(&self, id: &str) -> Option<String>;`);
      u.add('}');
    } else {
      u.add(`/// States of ${name}.`, '#[derive(Debug, Clone, Copy, PartialEq, Eq)]')
        .sym(name, 'enum')
        .add(`pub enum ${name} {`);
      u.add(
        ...rng
          .sample(['Pending', 'Active', 'Settled', 'Failed', 'Expired', 'Archived'], 4)
          .map((s) => `    ${s},`),
        '}',
      );
    }
    return u;
  },
  grpcServer(ctx, def, name) {
    const { rng } = ctx;
    const mod = `${def.pkgId}_pb`;
    [
      'tonic::{Request, Response, Status}',
      `crate::${mod}::${snakeOf(def.service)}_server::${def.service}`,
      `crate::${mod}`,
    ].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`/// Serves \`${def.fullName}\`.`, '#[derive(Debug, Default)]')
      .sym(name, 'struct')
      .add(
        `pub struct ${name} {`,
        '    limit: usize,',
        '}',
        '',
        '#[tonic::async_trait]',
        `impl ${def.service} for ${name} {`,
      );
    def.methods.forEach((m, k) => {
      const fn = snake(words(m.name));
      if (k) u.add('');
      u.add(`    /// ${cap(doc(rng))}.`)
        .mark({ type: 'grpc_impl', def, method: m.name })
        .sym(fn, 'method');
      u.add(
        `    async fn ${fn}(&self, request: Request<${mod}::${m.req}>) -> Result<Response<${mod}::${m.res}>, Status> {`,
        '        let _ = request.into_inner();',
        `        Ok(Response::new(${mod}::${m.res}::default()))`,
        '    }',
      );
    });
    u.add('}');
    return u;
  },
  grpcClient(ctx, def, methods, name) {
    const mod = `${def.pkgId}_pb`;
    [
      'tonic::transport::Channel',
      `crate::${mod}::${snakeOf(def.service)}_client::${def.service}Client`,
      `crate::${mod}`,
    ].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`/// Calls \`${def.fullName}\`.`)
      .sym(name, 'struct')
      .add(`pub struct ${name} {`, `    client: ${def.service}Client<Channel>,`, '}', '', `impl ${name} {`);
    u.sym('connect', 'method').add(
      '    pub async fn connect(addr: String) -> Result<Self, tonic::transport::Error> {',
      `        let client = ${def.service}Client::connect(addr).await?;`,
      '        Ok(Self { client })',
      '    }',
    );
    for (const m of methods) {
      const fn = snake(words(m.name));
      u.add('')
        .sym(fn, 'method')
        .add(`    pub async fn ${fn}(&mut self, id: String) -> Result<(), tonic::Status> {`);
      u.mark({ type: 'grpc_call', def, method: m.name }).add(
        `        self.client.${fn}(${mod}::${m.req} { id }).await?;`,
        '        Ok(())',
        '    }',
      );
    }
    u.add('}');
    return u;
  },
  producer(ctx, topic, name) {
    ['rdkafka::producer::{FutureProducer, FutureRecord}', 'std::time::Duration'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`/// Publishes \`${topic}\` events.`)
      .sym(name, 'struct')
      .add(`pub struct ${name} {`, '    producer: FutureProducer,', '}', '', `impl ${name} {`);
    u.sym('publish', 'method')
      .add('    pub async fn publish(&self, key: &str, payload: &str) {')
      .mark({ type: 'produce', topic })
      .add(`        let record = FutureRecord::to("${topic}").key(key).payload(payload);`);
    u.add('        let _ = self.producer.send(record, Duration::from_secs(1)).await;', '    }', '}');
    return u;
  },
  consumer(ctx, topic, name) {
    ['rdkafka::consumer::{Consumer, StreamConsumer}'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`/// Subscribes to \`${topic}\`.`)
      .sym(name, 'function')
      .add(`pub fn ${name}(consumer: &StreamConsumer) {`);
    u.mark({ type: 'consume', topic }).add(`    consumer.subscribe(&["${topic}"]).expect("subscribe");`, '}');
    return u;
  },
  routes(ctx, ctrl, name) {
    ['axum::routing::{delete, get, post, put}', 'axum::Router'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`/// HTTP API of ${ctrl.resource}.`)
      .sym(name, 'function')
      .add(`pub fn ${name}() -> Router {`, '    Router::new()');
    for (const r of ctrl.routes)
      u.mark({ type: 'route', route: r }).add(
        `        .route("${colon(r.path)}", ${r.method.toLowerCase()}(${r.handler}))`,
      );
    u.add('}');
    for (const r of ctrl.routes)
      u.add('')
        .sym(r.handler, 'function')
        .add(`async fn ${r.handler}() -> &'static str {`, `    "${ctrl.resource}"`, '}');
    return u;
  },
  httpCaller(ctx, calls, name) {
    ['reqwest::Client'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`/// HTTP client of the ${calls[0].target} service.`)
      .sym(name, 'struct')
      .add(`pub struct ${name} {`, '    http: Client,', '}', '', `impl ${name} {`);
    calls.forEach((c, k) => {
      const fn = `${snakeOf(cap(c.verb))}${k ? `_${k}` : ''}`;
      if (k) u.add('');
      u.sym(fn, 'method').add(
        `    pub async fn ${fn}(&self, id: &str) -> reqwest::Result<String> {`,
        `        let base = std::env::var("${c.env}").unwrap_or_default();`,
      );
      const path = c.path.replace('{id}', '{}');
      u.add(`        let url = format!("{}${path}", base${c.path.includes('{id}') ? ', id' : ''});`);
      u.mark({ type: 'http_call', call: c }).add(
        `        self.http.${c.method.toLowerCase()}(&url).send().await?.text().await`,
        '    }',
      );
    });
    u.add('}');
    return u;
  },
};

// ---------------------------------------------------------------------------------------------- C#

const csharp = {
  ext: 'cs',
  path: (ctx, name) => `src/${cap(ctx.module)}/${name}.cs`,
  header: (ctx) => [
    ...[...ctx.imports].sort().map((i) => `using ${i};`),
    '',
    `namespace Acme.${ctx.svc.Pascal}.${cap(ctx.module)};`,
    '',
  ],
  footer: () => [],
  classUnit(ctx, name) {
    const { rng } = ctx;
    ['System.Collections.Generic', 'System.Linq', 'Microsoft.Extensions.Logging'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add('/// <summary>', `/// ${name} ${doc(rng)}.`, '/// </summary>')
      .sym(name, 'class')
      .add(`public sealed class ${name}`, '{');
    u.add(
      `    private readonly ILogger<${name}> _logger;`,
      '    private readonly Dictionary<string, int> _entries = new();',
      '',
    );
    u.sym(name, 'constructor').add(
      `    public ${name}(ILogger<${name}> logger)`,
      '    {',
      '        _logger = logger;',
      '    }',
    );
    const ms = methodsOf(rng, methodCount(rng)).map((w) => pascal(w));
    for (const m of ms) {
      u.add('', `    /// <summary>${cap(doc(rng))}.</summary>`).sym(m, 'method');
      u.add(
        `    public int ${m}(IReadOnlyList<string> input)`,
        '    {',
        ...methodBody(
          'csharp',
          rng,
          '        ',
          bodyLines(rng),
          ms.filter((x) => x !== m),
        ),
        '    }',
      );
    }
    u.add('}');
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    const u = new Unit();
    if (rng.chance(0.5)) {
      u.add(`/// <summary>${cap(doc(rng))}.</summary>`)
        .sym(name, 'record')
        .add(`public sealed record ${name}(string Id, long Total, string? ${cap(rng.pick(NOUNS))});`);
    } else {
      u.add(`/// <summary>Contract of ${name}.</summary>`)
        .sym(`I${name}`, 'interface')
        .add(`public interface I${name}`, '{');
      for (const w of methodsOf(rng, rng.range(2, 4)))
        u.add(`    Task<string?> ${pascal(w)}Async(string id);`);
      u.add('}');
    }
    return u;
  },
  grpcServer(ctx, def, name) {
    const { rng } = ctx;
    ['System.Threading.Tasks', 'Grpc.Core', def.csNs].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add('/// <summary>', `/// Serves ${def.fullName}.`, '/// </summary>')
      .sym(name, 'class')
      .add(`public class ${name} : ${def.service}.${def.service}Base`, '{');
    def.methods.forEach((m, k) => {
      if (k) u.add('');
      u.add(`    /// <summary>${cap(doc(rng))}.</summary>`)
        .mark({ type: 'grpc_impl', def, method: m.name })
        .sym(m.name, 'method');
      u.add(
        `    public override Task<${m.res}> ${m.name}(${m.req} request, ServerCallContext context)`,
        '    {',
        `        return Task.FromResult(new ${m.res}());`,
        '    }',
      );
    });
    u.add('}');
    return u;
  },
  grpcClient(ctx, def, methods, name) {
    ['System.Threading.Tasks', 'Grpc.Net.Client', def.csNs].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`/// <summary>Calls ${def.fullName}.</summary>`)
      .sym(name, 'class')
      .add(
        `public class ${name}`,
        '{',
        `    private readonly ${def.service}.${def.service}Client _client;`,
        '',
      );
    u.add(
      `    public ${name}(GrpcChannel channel)`,
      '    {',
      `        _client = new ${def.service}.${def.service}Client(channel);`,
      '    }',
    );
    for (const m of methods) {
      u.add('')
        .sym(`${m.name}Async`, 'method')
        .add(`    public async Task<${m.res}> ${m.name}Async(string id)`, '    {');
      u.mark({ type: 'grpc_call', def, method: m.name }).add(
        `        return await _client.${m.name}Async(new ${m.req} { Id = id });`,
        '    }',
      );
    }
    u.add('}');
    return u;
  },
  producer(ctx, topic, name) {
    ['System.Threading.Tasks', 'Confluent.Kafka'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`/// <summary>Publishes ${topic} events.</summary>`)
      .sym(name, 'class')
      .add(`public class ${name}`, '{', '    private readonly IProducer<string, string> _producer;', '');
    u.add(
      `    public ${name}(IProducer<string, string> producer)`,
      '    {',
      '        _producer = producer;',
      '    }',
      '',
    );
    u.sym('PublishAsync', 'method').add(
      '    public async Task PublishAsync(string key, string payload)',
      '    {',
    );
    u.mark({ type: 'produce', topic }).add(
      `        await _producer.ProduceAsync("${topic}", new Message<string, string> { Key = key, Value = payload });`,
      '    }',
      '}',
    );
    return u;
  },
  consumer(ctx, topic, name) {
    ['System.Threading', 'Confluent.Kafka'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`/// <summary>Consumes ${topic}.</summary>`)
      .sym(name, 'class')
      .add(
        `public class ${name}`,
        '{',
        '    private readonly ConsumerConfig _config = new() { GroupId = "' + ctx.svc.name + '" };',
        '',
      );
    u.sym('Run', 'method').add(
      '    public void Run(CancellationToken token)',
      '    {',
      '        using var consumer = new ConsumerBuilder<string, string>(_config).Build();',
    );
    u.mark({ type: 'consume', topic }).add(
      `        consumer.Subscribe("${topic}");`,
      '        while (!token.IsCancellationRequested)',
      '        {',
      '            consumer.Consume(token);',
      '        }',
      '    }',
      '}',
    );
    return u;
  },
  routes(ctx, ctrl, name) {
    ['Microsoft.AspNetCore.Mvc'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add('[ApiController]', `[Route("${ctrl.base.slice(1)}")]`)
      .sym(name, 'class')
      .add(`public class ${name} : ControllerBase`, '{');
    ctrl.routes.forEach((r, k) => {
      if (k) u.add('');
      u.mark({ type: 'route', route: r })
        .add(`    [Http${cap(r.method.toLowerCase())}${r.sub ? `("${r.sub.slice(1)}")` : ''}]`)
        .sym(r.handler, 'method');
      u.add(
        `    public IActionResult ${r.handler}(${r.sub ? 'string id' : ''})`,
        '    {',
        `        return Ok("${ctrl.resource}");`,
        '    }',
      );
    });
    u.add('}');
    return u;
  },
  httpCaller(ctx, calls, name) {
    ['System', 'System.Net.Http', 'System.Threading.Tasks'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    const env = calls[0].env;
    u.add(`/// <summary>HTTP client of the ${calls[0].target} service.</summary>`)
      .sym(name, 'class')
      .add(`public class ${name}`, '{');
    u.add(
      `    private static readonly string BaseUrl = Environment.GetEnvironmentVariable("${env}") ?? "";`,
      '    private readonly HttpClient _http = new();',
    );
    calls.forEach((c, k) => {
      const fn = `${pascal([c.verb])}${k || ''}Async`;
      const path = c.path.replace('{id}', '{id}');
      u.add('').sym(fn, 'method').add(`    public async Task<HttpResponseMessage> ${fn}(string id)`, '    {');
      const req = `new HttpRequestMessage(HttpMethod.${cap(c.method.toLowerCase())}, $"{BaseUrl}${path}")`;
      u.mark({ type: 'http_call', call: c }).add(`        return await _http.SendAsync(${req});`, '    }');
    });
    u.add('}');
    return u;
  },
};

// ---------------------------------------------------------------------------------------------- C++

const cpp = {
  ext: 'cc',
  path: (ctx, name) => `src/${ctx.module}/${snakeOf(name)}.cc`,
  header: (ctx) => [
    `// ${cap(ctx.module)} logic of the ${ctx.svc.name} service.`,
    ...[...ctx.imports].sort().map((i) => `#include ${i}`),
    '',
    `namespace acme::${ctx.svc.pkg} {`,
    '',
  ],
  footer: (ctx) => ['', `}  // namespace acme::${ctx.svc.pkg}`],
  classUnit(ctx, name) {
    const { rng } = ctx;
    ['<cstddef>', '<iostream>', '<map>', '<string>', '<vector>'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`/// ${name} ${doc(rng)}.`)
      .sym(name, 'class')
      .add(`class ${name} {`, ' public:', `  explicit ${name}(std::size_t limit) : limit_(limit) {}`);
    const ms = methodsOf(rng, methodCount(rng)).map((w) => pascal(w));
    for (const m of ms) {
      u.add('', `  /// ${cap(doc(rng))}.`)
        .sym(m, 'method')
        .add(
          `  std::size_t ${m}(const std::vector<std::string>& input) {`,
          ...methodBody(
            'cpp',
            rng,
            '    ',
            bodyLines(rng),
            ms.filter((x) => x !== m),
          ),
          '  }',
        );
    }
    u.add('', ' private:', '  std::size_t limit_;', '  std::map<std::string, std::size_t> entries_;', '};');
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    const u = new Unit();
    if (rng.chance(0.5)) {
      u.add(`/// States of ${name}.`)
        .sym(name, 'enum')
        .add(
          `enum class ${name} { ${rng.sample(['kPending', 'kActive', 'kSettled', 'kFailed', 'kExpired'], 3).join(', ')} };`,
        );
    } else {
      const fn = pascal(methodWords(rng)) + name;
      ctx.imp('<vector>');
      u.add(`/// ${cap(doc(rng))}.`)
        .sym(fn, 'function')
        .add(
          `std::size_t ${fn}(const std::vector<std::string>& input) {`,
          ...methodBody('cpp', rng, '  ', bodyLines(rng)),
          '}',
        );
    }
    return u;
  },
  grpcServer(ctx, def, name) {
    ['<grpcpp/grpcpp.h>', `"${def.protoPath.replace(/\.proto$/, '.grpc.pb.h')}"`].forEach((i) => ctx.imp(i));
    const ns = def.cppNs;
    const u = new Unit();
    u.add(`/// Implements ${def.fullName}.`)
      .sym(name, 'class')
      .add(`class ${name} final : public ${ns}::${def.service}::Service {`, ' public:');
    def.methods.forEach((m, k) => {
      if (k) u.add('');
      u.mark({ type: 'grpc_impl', def, method: m.name }).sym(m.name, 'method');
      u.add(
        `  grpc::Status ${m.name}(grpc::ServerContext* context, const ${ns}::${m.req}* request,`,
        `      ${ns}::${m.res}* response) override {`,
        '    return grpc::Status::OK;',
        '  }',
      );
    });
    u.add('};');
    return u;
  },
  grpcClient(ctx, def, methods, name) {
    ['<memory>', '<grpcpp/grpcpp.h>', `"${def.protoPath.replace(/\.proto$/, '.grpc.pb.h')}"`].forEach((i) =>
      ctx.imp(i),
    );
    const ns = def.cppNs;
    const u = new Unit();
    u.add(`/// Calls ${def.fullName}.`)
      .sym(name, 'class')
      .add(
        `class ${name} {`,
        ' public:',
        `  explicit ${name}(std::shared_ptr<grpc::Channel> channel)`,
        `      : stub_(${ns}::${def.service}::NewStub(channel)) {}`,
      );
    for (const m of methods) {
      u.add('')
        .sym(m.name, 'method')
        .add(
          `  grpc::Status ${m.name}(const ${ns}::${m.req}& request, ${ns}::${m.res}* response) {`,
          '    grpc::ClientContext context;',
        );
      u.mark({ type: 'grpc_call', def, method: m.name }).add(
        `    return stub_->${m.name}(&context, request, response);`,
        '  }',
      );
    }
    u.add('', ' private:', `  std::unique_ptr<${ns}::${def.service}::Stub> stub_;`, '};');
    return u;
  },
};

// ---------------------------------------------------------------------------------------------- Ruby

const ruby = {
  ext: 'rb',
  path: (ctx, name) => `app/${ctx.module}/${snakeOf(name)}.rb`,
  header: (ctx) => [
    '# frozen_string_literal: true',
    '',
    ...[...ctx.imports].sort().map((i) => `require "${i}"`),
    '',
    `module ${ctx.svc.Pascal}`,
  ],
  footer: () => ['end'],
  indent: '  ',
  classUnit(ctx, name) {
    const { rng } = ctx;
    ['json', 'logger'].forEach((i) => ctx.imp(i));
    const u = new Unit();
    u.add(`# ${name} ${doc(rng)}.`)
      .sym(name, 'class')
      .add(`class ${name}`, `  DEFAULT_LIMIT = ${rng.range(10, 500)}`, '', '  attr_reader :limit', '');
    u.add(
      '  def initialize(limit: DEFAULT_LIMIT, logger: Logger.new($stdout))',
      '    @limit = limit',
      '    @logger = logger',
      '  end',
    );
    const ms = methodsOf(rng, methodCount(rng)).map((w) => snake(w));
    for (const m of ms) {
      u.add('', `  # ${cap(doc(rng))}.`)
        .sym(m, 'method')
        .add(
          `  def ${m}(items)`,
          ...methodBody(
            'ruby',
            rng,
            '    ',
            bodyLines(rng),
            ms.filter((x) => x !== m),
          ),
          '  end',
        );
    }
    u.add('', '  private', '', '  attr_reader :logger', 'end');
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    const u = new Unit();
    u.add(`# Helpers shared by ${name}.`).sym(name, 'module').add(`module ${name}`);
    for (const w of methodsOf(rng, rng.range(1, 3))) {
      u.add('')
        .sym(snake(w), 'method')
        .add(
          `  def self.${snake(w)}(items)`,
          ...methodBody('ruby', rng, '    ', bodyLines(rng)).map((l) => l.replace('logger.debug', 'warn')),
          '  end',
        );
    }
    u.add('end');
    return u;
  },
  controllerClass(ctx, ctrl, name) {
    const u = new Unit();
    u.add(`# HTTP API of ${ctrl.resource}.`).sym(name, 'class').add(`class ${name} < ApplicationController`);
    ctrl.routes.forEach((r, k) => {
      if (k) u.add('');
      u.sym(r.action, 'method').add(
        `  def ${r.action}`,
        `    render json: { resource: "${ctrl.resource}" }`,
        '  end',
      );
    });
    u.add('end');
    return u;
  },
  routesFile(ctx, ctrls) {
    const lines = ['# frozen_string_literal: true', '', 'Rails.application.routes.draw do'];
    const marks = [];
    for (const ctrl of ctrls) {
      for (const r of ctrl.routes) {
        marks.push({ type: 'route', route: r, line: lines.length });
        lines.push(`  ${r.method.toLowerCase()} "${colon(r.path)}", to: "${ctrl.railsName}#${r.action}"`);
      }
    }
    lines.push('end');
    return { lines, marks };
  },
};

// ---------------------------------------------------------------------------------------------- PHP

const php = {
  ext: 'php',
  path: (ctx, name) => `app/${cap(ctx.module)}/${name}.php`,
  header: (ctx) => [
    '<?php',
    '',
    'declare(strict_types=1);',
    '',
    `namespace App\\${cap(ctx.module)};`,
    '',
    ...[...ctx.imports].sort().map((i) => `use ${i};`),
    '',
  ],
  footer: () => [],
  classUnit(ctx, name) {
    const { rng } = ctx;
    ctx.imp('Psr\\Log\\LoggerInterface');
    const u = new Unit();
    u.add('/**', ` * ${name} ${doc(rng)}.`, ' */')
      .sym(name, 'class')
      .add(`final class ${name}`, '{', '    private array $entries = [];', '');
    u.add(
      '    public function __construct(private readonly LoggerInterface $logger, private int $limit = 100)',
      '    {',
      '    }',
    );
    const ms = methodsOf(rng, methodCount(rng)).map((w) => camel(w));
    for (const m of ms) {
      u.add('', '    /**', `     * ${cap(doc(rng))}.`, '     */').sym(m, 'method');
      u.add(
        `    public function ${m}(array $input): int`,
        '    {',
        ...methodBody(
          'php',
          rng,
          '        ',
          bodyLines(rng),
          ms.filter((x) => x !== m),
        ),
        '    }',
      );
    }
    u.add('}');
    return u;
  },
  extraUnit(ctx, name) {
    const { rng } = ctx;
    const u = new Unit();
    u.add(`/** ${cap(doc(rng))}. */`)
      .sym(name, 'interface')
      .add(`interface ${name}`, '{');
    for (const w of methodsOf(rng, rng.range(2, 4)))
      u.add(`    public function ${camel(w)}(string $id): ?string;`);
    u.add('}');
    return u;
  },
  controllerClass(ctx, ctrl, name) {
    ctx.imp('Illuminate\\Http\\JsonResponse');
    const u = new Unit();
    u.add(`/** HTTP API of ${ctrl.resource}. */`).sym(name, 'class').add(`final class ${name}`, '{');
    ctrl.routes.forEach((r, k) => {
      if (k) u.add('');
      u.sym(r.action, 'method').add(
        `    public function ${r.action}(${r.sub ? 'string $id' : ''}): JsonResponse`,
        '    {',
        `        return response()->json(['resource' => '${ctrl.resource}']);`,
        '    }',
      );
    });
    u.add('}');
    return u;
  },
  routesFile(ctx, ctrls) {
    const lines = ['<?php', '', 'use Illuminate\\Support\\Facades\\Route;'];
    for (const ctrl of ctrls) lines.push(`use App\\Http\\${ctrl.name};`);
    lines.push('');
    const marks = [];
    for (const ctrl of ctrls) {
      for (const r of ctrl.routes) {
        marks.push({ type: 'route', route: r, line: lines.length });
        lines.push(`Route::${r.method.toLowerCase()}('${r.path}', [${ctrl.name}::class, '${r.action}']);`);
      }
    }
    return { lines, marks };
  },
};

export const KITS = { typescript, javascript, go, java, kotlin, scala, python, rust, csharp, cpp, ruby, php };

/** Which contract idioms each language's services use (what meshlens is expected to extract). */
export const CAN = {
  grpcServer: ['typescript', 'go', 'java', 'kotlin', 'python', 'rust', 'csharp', 'cpp'],
  grpcClient: ['typescript', 'go', 'java', 'kotlin', 'python', 'rust', 'csharp', 'cpp'],
  producer: ['typescript', 'javascript', 'go', 'java', 'kotlin', 'python', 'rust', 'csharp'],
  consumer: ['typescript', 'javascript', 'go', 'java', 'kotlin', 'python', 'rust', 'csharp'],
  routes: ['typescript', 'javascript', 'go', 'java', 'kotlin', 'python', 'rust', 'csharp', 'ruby', 'php'],
  httpCaller: ['typescript', 'javascript', 'go', 'java', 'kotlin', 'python', 'rust', 'csharp'],
};

export { VERBS, words as nameWords, SYNTAX };
