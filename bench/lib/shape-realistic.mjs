// The realistic shape: one service per root, each in its own language, with files of 50–800 lines (a few up
// to ~2,000), real cross-service contracts (gRPC services in a shared `proto` root implemented in one root and
// called from others, topics produced in one root and consumed in others, HTTP routes called through
// env-var base URLs that a docker-compose file maps to service hosts), docs and config.
import { CAN, KITS, kebabOf, snakeOf } from './kits.mjs';
import {
  DOMAINS,
  EVENTS,
  NOUNS,
  PHRASES,
  ROLES,
  SERVICE_NAMES,
  VERBS,
  cap,
  camel,
  pascal,
  snake,
  upperSnake,
} from './words.mjs';

export const LANG_ORDER = [
  'typescript',
  'go',
  'java',
  'python',
  'kotlin',
  'rust',
  'csharp',
  'cpp',
  'ruby',
  'php',
  'scala',
  'javascript',
];

const EXTRA_SUFFIXES = ['Options', 'Snapshot', 'State', 'Summary', 'Config', 'Event', 'Policy', 'Key'];

/** Lines of one source file: 50–800, skewed small (mean ~290), and one file in 70 of 1,000–2,000. */
function lineTarget(rng) {
  if (rng.chance(0.015)) return rng.range(1000, 2000);
  return Math.round(50 + 750 * Math.pow(rng.next(), 2.2));
}

const plural = (word) =>
  /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(word) ? `${word}es` : `${word}s`;

export function generateRealistic({ files: n, roots: r, rng, emit, truth }) {
  const taken = new Set();
  /** A workspace-unique name (case-insensitive); a numeric suffix only on collision. */
  const uniq = (base) => {
    let name = base;
    for (let k = 2; taken.has(name.toLowerCase()); k++) name = `${base}${k}`;
    taken.add(name.toLowerCase());
    return name;
  };
  const className = () => uniq(pascal([rng.pick(DOMAINS), rng.pick(NOUNS)]) + rng.pick(ROLES));

  const services = [];
  for (let i = 0; i < r; i++) {
    const base = SERVICE_NAMES[i % SERVICE_NAMES.length];
    const name = i < SERVICE_NAMES.length ? base : `${base}-${Math.floor(i / SERVICE_NAMES.length) + 1}`;
    const pkg = name.replace(/[^a-z0-9]/g, '');
    services.push({
      name,
      pkg,
      Pascal: pascal(name.split('-')),
      lang: LANG_ORDER[i % LANG_ORDER.length],
      root: `services/${name}`,
      modules: rng.sample([...new Set([...NOUNS.slice(0, 20), ...DOMAINS.slice(0, 10)])], rng.range(4, 8)),
      work: [],
      envs: new Map(),
      ctrls: [],
    });
  }
  const able = (what) => services.filter((s) => CAN[what].includes(s.lang));
  const others = (list, not) => list.filter((s) => !not.includes(s));

  // gRPC services: each declared once in the proto root, served by one root, called from two others.
  const servers = able('grpcServer');
  const grpcCount = servers.length ? Math.max(Math.min(8, servers.length), Math.round(n / 250)) : 0;
  const defs = [];
  for (let g = 0; g < grpcCount; g++) {
    const owner = servers[g % servers.length];
    const service = uniq(pascal([rng.pick(DOMAINS), rng.pick(NOUNS)]) + 'Service');
    const stem = snakeOf(service.replace(/Service$/, ''));
    const methodNames = new Set();
    while (methodNames.size < rng.range(3, 6)) methodNames.add(pascal([rng.pick(VERBS), rng.pick(NOUNS)]));
    const def = {
      service,
      owner,
      pkgId: owner.pkg,
      fullName: `acme.${owner.pkg}.v1.${service}`,
      stem,
      protoPath: `${owner.pkg}/v1/${stem}.proto`,
      goImport: `github.com/acme/mesh/gen/${owner.pkg}/v1`,
      goAlias: `${owner.pkg}v1`,
      javaPkg: `com.acme.${owner.pkg}.v1`,
      csNs: `Acme.${owner.Pascal}.V1`,
      pyModule: `acme.${owner.pkg}.v1`,
      cppNs: `acme::${owner.pkg}::v1`,
      methods: [...methodNames].map((m) => ({ name: m, req: `${m}Request`, res: `${m}Response` })),
    };
    defs.push(def);
    owner.work.push({ role: 'grpcServer', def, name: uniq(service.replace(/Service$/, 'GrpcService')) });
    for (const caller of rng.sample(others(able('grpcClient'), [owner]), 2)) {
      const methods = rng.sample(def.methods, rng.range(1, Math.min(3, def.methods.length)));
      caller.work.push({
        role: 'grpcClient',
        def,
        methods,
        name: uniq(service.replace(/Service$/, 'Client')),
      });
    }
  }

  // Topics: one producer root, one or two consumer roots elsewhere.
  const producers = able('producer');
  const topicCount = producers.length && able('consumer').length > 1 ? Math.max(6, Math.round(n / 100)) : 0;
  const topicNames = new Set();
  for (let t = 0; t < topicCount; t++) {
    let topic = `${rng.pick(DOMAINS)}s.${rng.pick(EVENTS)}`;
    for (let k = 2; topicNames.has(topic); k++) topic = `${topic.replace(/\.v\d+$/, '')}.v${k}`;
    topicNames.add(topic);
    const producer = rng.pick(producers);
    producer.work.push({ role: 'producer', topic, name: uniq(pascal(topic.split(/[.-]/)) + 'Publisher') });
    for (const consumer of rng.sample(others(able('consumer'), [producer]), rng.range(1, 2))) {
      const name = uniq(pascal(topic.split(/[.-]/)) + 'Listener');
      consumer.work.push({
        role: 'consumer',
        topic,
        name:
          consumer.lang === 'python' || consumer.lang === 'rust'
            ? `consume_${snakeOf(name)}`
            : consumer.lang === 'javascript'
              ? `consume${name}`
              : name,
      });
    }
  }

  // HTTP: controllers with 3–5 routes; most are called from another root through `<SERVICE>_URL`.
  const routers = able('routes');
  const ctrlCount = routers.length ? Math.max(Math.min(r, routers.length), Math.round(n / 80)) : 0;
  const KINDS = [
    { method: 'GET', sub: '', verb: 'list', action: 'index' },
    { method: 'GET', sub: '/{id}', verb: 'get', action: 'show' },
    { method: 'POST', sub: '', verb: 'create', action: 'create' },
    { method: 'PUT', sub: '/{id}', verb: 'update', action: 'update' },
    { method: 'DELETE', sub: '/{id}', verb: 'delete', action: 'destroy' },
  ];
  for (let c = 0; c < ctrlCount; c++) {
    const owner = routers[c % routers.length];
    const resourceName = uniq(pascal([rng.pick(DOMAINS), rng.pick(NOUNS)]) + 'Resource').replace(
      /Resource(\d*)$/,
      '$1',
    );
    const resource = plural(kebabOf(resourceName));
    const base = `/api/${owner.name}/${resource}`;
    const name = uniq(`${resourceName}Controller`);
    const Res = pascal(resource.split('-'));
    const routes = rng.sample(KINDS, rng.range(3, 5)).map((k) => ({
      method: k.method,
      sub: k.sub,
      path: base + k.sub,
      handler: `${k.verb}${Res}`,
      action: k.action,
      verb: k.verb,
      root: owner.root,
    }));
    const ctrl = { name, resource, base, routes, railsName: snake(resource.split('-')), owner };
    owner.ctrls.push(ctrl);
    owner.work.push({
      role: owner.lang === 'ruby' || owner.lang === 'php' ? 'controllerClass' : 'routes',
      ctrl,
      name:
        owner.lang === 'python'
          ? `${snakeOf(name)}_router`
          : owner.lang === 'rust'
            ? `${snakeOf(name)}_routes`
            : owner.lang === 'javascript'
              ? `register${name}`
              : name,
    });
    const callers = others(able('httpCaller'), [owner]);
    if (callers.length && rng.chance(0.85)) {
      const caller = rng.pick(callers);
      const env = `${upperSnake(owner.name)}_URL`;
      caller.envs.set(env, `http://${owner.name}:8080`);
      const calls = rng.sample(routes, rng.range(1, 2)).map((route) => ({
        env,
        method: route.method,
        path: route.path,
        target: owner.name,
        verb: `${route.verb}${Res}`,
      }));
      caller.work.push({
        role: 'httpCaller',
        calls,
        name: uniq(`${pascal(owner.name.split('-'))}${Res}Client`),
      });
    }
  }

  // File budget: shared files first, then every root's fixed files, then the contract files; the rest is
  // plain code spread evenly.
  const docsCount = Math.max(3, Math.round(n * 0.02));
  const fixedPerRoot = (s) => 3 + (s.ctrls.length && (s.lang === 'ruby' || s.lang === 'php') ? 1 : 0);
  const fixed = defs.length + docsCount + 1 + r + services.reduce((sum, s) => sum + fixedPerRoot(s), 0);
  const contractFiles = services.reduce((sum, s) => sum + s.work.length, 0);
  let fillers = Math.max(0, n - fixed - contractFiles);
  for (let i = 0; fillers > 0; i = (i + 1) % r, fillers--) services[i].work.push({ role: 'plain' });

  for (const svc of services) {
    // Interleave contract files with plain ones, deterministically.
    const work = rng.shuffle(svc.work);
    for (const item of work) buildSource(svc, item);
    buildServiceExtras(svc);
  }
  for (const def of defs) buildProto(def);
  buildDocs(docsCount);
  buildDeploy();

  return {
    config: [
      '[workspace]',
      'roots = ["services/*", "proto", "docs", "deploy"]',
      '',
      '[contracts]',
      'proto_dirs = ["proto"]',
      '',
    ],
    extras: {},
    services: services.map((s) => ({ name: s.name, root: s.root, language: s.lang })),
  };

  // ------------------------------------------------------------------------------------------ sources

  function makeCtx(svc) {
    const imports = [];
    return {
      rng,
      svc,
      module: rng.pick(svc.modules),
      imports,
      exports: [],
      first: true,
      imp(line) {
        if (!imports.includes(line)) imports.push(line);
      },
      importLines() {
        return [...imports].sort((a, b) =>
          a.startsWith('import type') === b.startsWith('import type')
            ? a < b
              ? -1
              : a > b
                ? 1
                : 0
            : a.startsWith('import type')
              ? 1
              : -1,
        );
      },
    };
  }

  function buildSource(svc, item) {
    const kit = KITS[svc.lang];
    const ctx = makeCtx(svc);
    const units = [];
    let main;
    switch (item.role) {
      case 'grpcServer':
        main = kit.grpcServer(ctx, item.def, item.name);
        break;
      case 'grpcClient':
        main = kit.grpcClient(ctx, item.def, item.methods, item.name);
        break;
      case 'producer':
        main = kit.producer(ctx, item.topic, item.name);
        break;
      case 'consumer':
        main = kit.consumer(ctx, item.topic, item.name);
        break;
      case 'routes':
        main = kit.routes(ctx, item.ctrl, item.name);
        break;
      case 'controllerClass':
        main = kit.controllerClass(ctx, item.ctrl, item.name);
        break;
      case 'httpCaller':
        main = kit.httpCaller(ctx, item.calls, item.name);
        break;
      default:
        item = { ...item, name: className() };
        main = kit.classUnit(ctx, item.name);
    }
    units.push(main);
    ctx.first = false;
    const target = lineTarget(rng);
    let lines = main.lines.length;
    while (lines < target) {
      const unit =
        kit.extraUnit && rng.chance(0.3)
          ? kit.extraUnit(ctx, uniq(pascal([rng.pick(DOMAINS), rng.pick(NOUNS)]) + rng.pick(EXTRA_SUFFIXES)))
          : kit.classUnit(ctx, className());
      units.push(unit);
      lines += unit.lines.length + 1;
    }
    const fileName =
      item.role === 'controllerClass' && svc.lang === 'ruby' ? `${snakeOf(item.name)}` : item.name;
    const relPath =
      item.role === 'controllerClass'
        ? svc.lang === 'ruby'
          ? `app/controllers/${fileName}.rb`
          : `app/Http/${item.name}.php`
        : kit.path(ctx, item.name);
    if (item.role === 'controllerClass' && svc.lang === 'php') ctx.module = 'http';
    assemble(svc, `${svc.root}/${relPath}`, kit, ctx, units);
  }

  function assemble(svc, file, kit, ctx, units) {
    const header = kit.header(ctx);
    const ind = kit.indent ?? '';
    const gap = kit.unitGap ?? 1;
    const out = [...header];
    const symbols = [];
    units.forEach((u, k) => {
      if (k > 0 || (header.length && header[header.length - 1] !== ''))
        for (let g = 0; g < gap; g++) out.push('');
      else if (k === 0 && gap > 1) out.push('');
      const offset = out.length;
      for (const line of u.lines) out.push(line && ind ? ind + line : line);
      for (const s of u.symbols) symbols.push({ name: s.name, kind: s.kind, line: offset + s.line + 1 });
      for (const m of u.marks) recordMark(svc, file, m, offset + m.line + 1);
    });
    out.push(...kit.footer(ctx));
    emit(file, out, svc.root, symbols, svc.lang);
  }

  function recordMark(svc, file, m, line) {
    const root = svc.root;
    if (m.type === 'grpc_impl' || m.type === 'grpc_call') {
      truth.grpc.push({
        kind: m.type === 'grpc_impl' ? 'implements' : 'calls',
        service: m.def.service,
        fullName: m.def.fullName,
        method: m.method,
        root,
        file,
        line,
      });
    } else if (m.type === 'produce' || m.type === 'consume') {
      truth.topics.push({
        kind: m.type === 'produce' ? 'produces' : 'consumes',
        topic: m.topic,
        root,
        file,
        line,
      });
    } else if (m.type === 'route') {
      truth.http.push({ kind: 'route', method: m.route.method, path: m.route.path, root, file, line });
    } else if (m.type === 'http_call') {
      truth.http.push({
        kind: 'call',
        method: m.call.method,
        path: m.call.path,
        env: m.call.env,
        target: `services/${m.call.target}`,
        root,
        file,
        line,
      });
    }
  }

  // ------------------------------------------------------------------------------------------ other files

  function buildServiceExtras(svc) {
    const root = svc.root;
    const m = MANIFESTS[svc.lang](svc);
    emit(`${root}/${m.path}`, m.lines, root, [], 'manifest');
    const jvm = svc.lang === 'java' || svc.lang === 'kotlin' || svc.lang === 'scala';
    const config = jvm ? 'src/main/resources/application.yml' : 'config/settings.yaml';
    emit(`${root}/${config}`, configLines(svc, jvm), root, [], 'yaml');
    emit(`${root}/README.md`, readmeLines(svc), root, [], 'markdown');
    if (svc.ctrls.length && (svc.lang === 'ruby' || svc.lang === 'php')) {
      const kit = KITS[svc.lang];
      const { lines, marks } = kit.routesFile({ svc }, svc.ctrls);
      const file = `${root}/${svc.lang === 'ruby' ? 'config/routes.rb' : 'routes/api.php'}`;
      for (const mk of marks) recordMark(svc, file, mk, mk.line + 1);
      emit(file, lines, root, [], svc.lang);
    }
  }

  function configLines(svc, jvm) {
    const lines = [`# Settings of the ${svc.name} service.`, 'server:', `  port: ${8080}`];
    if (jvm)
      lines.push(
        'spring:',
        '  application:',
        `    name: ${svc.name}`,
        '  datasource:',
        `    url: jdbc:postgresql://db:5432/${svc.pkg}`,
        `    username: ${svc.pkg}`,
        `    password: fake-${rng.int(1e9).toString(36)}`,
        '  kafka:',
        '    bootstrap-servers:',
        '      - kafka-1:9092',
        '      - kafka-2:9092',
      );
    else
      lines.push(
        'database:',
        `  url: postgres://${svc.pkg}@db:5432/${svc.pkg}`,
        `  password: fake-${rng.int(1e9).toString(36)}`,
        'kafka:',
        '  brokers: [kafka-1:9092, kafka-2:9092]',
      );
    lines.push('limits:');
    for (const noun of rng.sample(NOUNS, rng.range(4, 10))) lines.push(`  ${noun}: ${rng.range(1, 5000)}`);
    lines.push('features:');
    for (const d of rng.sample(DOMAINS, rng.range(3, 8)))
      lines.push(`  ${d}-${rng.pick(NOUNS)}: ${rng.chance(0.5)}`);
    return lines;
  }

  function readmeLines(svc) {
    const lines = [
      `# ${svc.name}`,
      '',
      `The ${svc.name} service (${svc.lang}) ${rng.pick(PHRASES)}.`,
      '',
      '## Contracts',
      '',
    ];
    for (const w of svc.work) {
      if (w.role === 'grpcServer')
        lines.push(`- serves \`${w.def.fullName}\` (${w.def.methods.map((m) => m.name).join(', ')})`);
      else if (w.role === 'grpcClient') lines.push(`- calls \`${w.def.service}\``);
      else if (w.role === 'producer') lines.push(`- produces \`${w.topic}\``);
      else if (w.role === 'consumer') lines.push(`- consumes \`${w.topic}\``);
      else if (w.role === 'routes' || w.role === 'controllerClass') lines.push(`- serves \`${w.ctrl.base}\``);
    }
    lines.push(
      '',
      '## Running locally',
      '',
      '```sh',
      `docker compose -f deploy/docker-compose.yml up ${svc.name}`,
      '```',
      '',
      '## Operations',
      '',
    );
    for (let k = 0; k < rng.range(2, 6); k++)
      lines.push(
        `${cap(rng.pick(VERBS))} the ${rng.pick(NOUNS)} of a ${rng.pick(DOMAINS)} only when it ${rng.pick(PHRASES)}.`,
        '',
      );
    return lines;
  }

  function buildProto(def) {
    const lines = [
      `// ${def.service}: ${rng.pick(PHRASES)}.`,
      'syntax = "proto3";',
      '',
      `package acme.${def.pkgId}.v1;`,
      '',
      'import "google/protobuf/timestamp.proto";',
      '',
      `option go_package = "${def.goImport};${def.goAlias}";`,
      'option java_multiple_files = true;',
      `option java_package = "${def.javaPkg}";`,
      `option csharp_namespace = "${def.csNs}";`,
      '',
      `// ${def.service} is owned by the ${def.owner.name} team.`,
    ];
    const symbols = [];
    symbols.push({ name: def.service, kind: 'grpc_service', line: lines.length + 1 });
    lines.push(`service ${def.service} {`);
    for (const m of def.methods) {
      lines.push(`  // ${cap(rng.pick(PHRASES))}.`);
      symbols.push({ name: m.name, kind: 'rpc', line: lines.length + 1 });
      lines.push(`  rpc ${m.name}(${m.req}) returns (${m.res});`);
    }
    lines.push('}');
    for (const m of def.methods) {
      for (const msg of [m.req, m.res]) {
        lines.push('');
        symbols.push({ name: msg, kind: 'message', line: lines.length + 1 });
        lines.push(`message ${msg} {`, '  string id = 1;');
        rng
          .sample(NOUNS, rng.range(1, 6))
          .forEach((f, k) =>
            lines.push(`  ${rng.pick(['string', 'int64', 'bool', 'double'])} ${f} = ${k + 2};`),
          );
        lines.push('  google.protobuf.Timestamp updated_at = 20;', '}');
      }
    }
    emit(`proto/${def.protoPath}`, lines, 'proto', symbols, 'proto');
  }

  function buildDocs(count) {
    const kinds = ['adr', 'runbooks', 'guides', 'rfcs'];
    for (let d = 0; d < count; d++) {
      const kind = kinds[d % kinds.length];
      const title = `${cap(rng.pick(VERBS))} ${rng.pick(DOMAINS)} ${rng.pick(NOUNS)}s`;
      const slug = `${String(d + 1).padStart(4, '0')}-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
      const lines = [`# ${title}`, '', `Status: ${rng.pick(['accepted', 'proposed', 'superseded'])}`, ''];
      const target = rng.range(40, 220);
      while (lines.length < target) {
        lines.push(`## ${cap(rng.pick(VERBS))} the ${rng.pick(NOUNS)}`, '');
        for (let p = 0; p < rng.range(1, 3); p++) {
          const svc = rng.pick(services);
          lines.push(
            `The ${svc.name} service ${rng.pick(PHRASES)}; each ${rng.pick(NOUNS)} ${rng.pick(PHRASES)}.`,
          );
          if (defs.length && rng.chance(0.3)) {
            const def = rng.pick(defs);
            lines.push(
              `It calls \`${def.service}.${rng.pick(def.methods).name}\` before it ${rng.pick(PHRASES)}.`,
            );
          }
          lines.push('');
        }
        if (rng.chance(0.3))
          lines.push('```sh', `kubectl -n shop rollout restart deploy/${rng.pick(services).name}`, '```', '');
      }
      emit(`docs/${kind}/${slug}.md`, lines, 'docs', [], 'markdown');
    }
  }

  function buildDeploy() {
    const lines = [
      '# Local stack: service names double as host names, so each *_URL names its service.',
      'name: acme-mesh',
      '',
      'services:',
      '  kafka:',
      '    image: bitnami/kafka:3.7',
      '  db:',
      '    image: postgres:16',
      '    environment:',
      '      POSTGRES_HOST_AUTH_METHOD: trust',
    ];
    for (const svc of services) {
      lines.push(
        '',
        `  ${svc.name}:`,
        `    build: ../${svc.root}`,
        '    depends_on: [kafka, db]',
        '    environment:',
        '      KAFKA_BROKERS: kafka:9092',
        `      DATABASE_URL: postgres://${svc.pkg}@db:5432/${svc.pkg}`,
      );
      for (const [env, url] of [...svc.envs].sort()) lines.push(`      ${env}: ${url}`);
      const k8s = [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        `  name: ${svc.name}`,
        'spec:',
        `  replicas: ${rng.range(1, 4)}`,
        '  template:',
        '    spec:',
        '      containers:',
        `        - name: ${svc.name}`,
        `          image: acme/${svc.name}:1.${rng.range(0, 40)}.${rng.range(0, 9)}`,
        '          env:',
      ];
      for (const [env, url] of [...svc.envs].sort())
        k8s.push(`            - name: ${env}`, `              value: ${url}`);
      emit(`deploy/k8s/${svc.name}.yaml`, k8s, 'deploy', [], 'yaml');
    }
    emit('deploy/docker-compose.yml', lines, 'deploy', [], 'yaml');
  }
}

const MANIFESTS = {
  typescript: (s) => ({
    path: 'package.json',
    lines: JSON.stringify(
      {
        name: s.name,
        version: '1.0.0',
        private: true,
        dependencies: { '@nestjs/common': '^10.0.0', '@nestjs/microservices': '^10.0.0', kafkajs: '^2.2.4' },
      },
      null,
      2,
    ).split('\n'),
  }),
  javascript: (s) => ({
    path: 'package.json',
    lines: JSON.stringify(
      {
        name: s.name,
        version: '1.0.0',
        private: true,
        dependencies: { express: '^4.19.0', kafkajs: '^2.2.4' },
      },
      null,
      2,
    ).split('\n'),
  }),
  go: (s) => ({
    path: 'go.mod',
    lines: [
      `module github.com/acme/mesh/${s.name}`,
      '',
      'go 1.22',
      '',
      'require (',
      '\tgithub.com/segmentio/kafka-go v0.4.47',
      '\tgoogle.golang.org/grpc v1.64.0',
      ')',
    ],
  }),
  java: (s) => ({
    path: 'pom.xml',
    lines: [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<project>',
      '  <modelVersion>4.0.0</modelVersion>',
      '  <groupId>com.acme</groupId>',
      `  <artifactId>${s.name}</artifactId>`,
      '  <version>1.0.0</version>',
      '</project>',
    ],
  }),
  kotlin: (s) => ({ path: 'settings.gradle.kts', lines: [`rootProject.name = "${s.name}"`] }),
  scala: (s) => ({ path: 'build.sbt', lines: [`name := "${s.name}"`, 'scalaVersion := "3.4.2"'] }),
  python: (s) => ({
    path: 'pyproject.toml',
    lines: [
      '[project]',
      `name = "${s.name}"`,
      'version = "1.0.0"',
      'dependencies = ["grpcio", "confluent-kafka", "fastapi", "httpx"]',
    ],
  }),
  rust: (s) => ({
    path: 'Cargo.toml',
    lines: [
      '[package]',
      `name = "${s.name}"`,
      'version = "1.0.0"',
      'edition = "2021"',
      '',
      '[dependencies]',
      'tonic = "0.11"',
      'axum = "0.7"',
      'rdkafka = "0.36"',
    ],
  }),
  csharp: (s) => ({
    path: `${s.Pascal}.csproj`,
    lines: [
      '<Project Sdk="Microsoft.NET.Sdk.Web">',
      '  <PropertyGroup>',
      '    <TargetFramework>net8.0</TargetFramework>',
      `    <AssemblyName>${s.name}</AssemblyName>`,
      '  </PropertyGroup>',
      '</Project>',
    ],
  }),
  cpp: (s) => ({
    path: 'CMakeLists.txt',
    lines: [
      'cmake_minimum_required(VERSION 3.20)',
      `project(${s.pkg} CXX)`,
      'find_package(gRPC CONFIG REQUIRED)',
    ],
  }),
  ruby: (s) => ({
    path: 'Gemfile',
    lines: ['source "https://rubygems.org"', '', 'gem "rails", "~> 7.1"', `# ${s.name}`],
  }),
  php: (s) => ({
    path: 'composer.json',
    lines: JSON.stringify(
      { name: `acme/${s.name}`, require: { 'laravel/framework': '^11.0' } },
      null,
      2,
    ).split('\n'),
  }),
};

export { camel };
