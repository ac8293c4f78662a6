// Bundles the CLI (and the parse worker) with esbuild so that `meshlens serve` answers `initialize` fast:
// one file to load instead of hundreds of modules. Heavy parts are split into chunks loaded after the
// handshake. Native and wasm-loading packages stay external and are resolved from node_modules.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, readdir, rm, writeFile, chmod } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { registeredGrammars } from './registered-grammars.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist');
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));

// Cached facts are keyed by this hash of everything that decides what extraction produces, so a build with
// changed extractors never reuses facts extracted by the previous one.
async function extractionHash() {
  const hash = createHash('sha256');
  const files = [];
  for (const dir of ['src/index/languages', 'src/index/parse']) {
    for (const entry of await readdir(path.join(root, dir), { recursive: true })) {
      if (entry.endsWith('.ts')) files.push(path.join(dir, entry));
    }
  }
  // Extractors mask secrets in what they keep (doc sections, config values), so the masking rules count too.
  for (const entry of await readdir(path.join(root, 'src/trust'))) {
    if (entry.startsWith('secret-') && entry.endsWith('.ts')) files.push(path.join('src/trust', entry));
  }
  files.push('src/index/facts.ts', 'package-lock.json');
  for (const file of files.sort()) hash.update(file).update(await readFile(path.join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });

const entryPoints = { meshlens: 'src/cli/bin.ts' };
if (existsSync(path.join(root, 'src/index/parse/worker.ts')))
  entryPoints['parse-worker'] = 'src/index/parse/worker.ts';

// The SDK's Server builds an Ajv JSON-Schema validator (Ajv and its formats: a fifth of the boot time) for one
// feature, validating elicitation answers. meshlens never elicits, so the bundle carries a validator that
// refuses instead; test/e2e/bundle.test.ts checks that Ajv is gone and that nothing in src elicits.
const withoutAjv = {
  name: 'meshlens-without-ajv',
  setup(esbuild) {
    esbuild.onResolve({ filter: /validation\/ajv-provider\.js$/ }, (args) =>
      args.importer.includes('@modelcontextprotocol')
        ? { path: path.join(root, 'scripts/no-json-schema-validator.mjs') }
        : undefined,
    );
  },
};

// zod ships its error messages in ~50 languages and re-exports all of them (`z.locales`), so a bundle that
// imports `z` carries every one: about 40 % of the code compiled at boot. meshlens only uses the English
// default, which zod imports on its own; the namespace keeps just that one.
const zodEnglishOnly = {
  name: 'meshlens-zod-english-only',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)
        ? { path: path.join(path.dirname(args.importer), '../locales/index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), 'en.js'))};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

// zod's namespace also carries two compilers meshlens never calls: `z.compile` (a code generator for a faster
// parser, core/compile.js) and `z.fromJSONSchema` (JSON Schema → zod). Together a third of the zod code that
// `serve` compiles before answering `initialize`. The bundle keeps their names, each throwing if ever called;
// test/e2e/bundle.test.ts checks that nothing in src calls them.
const zodWithoutCompilers = {
  name: 'meshlens-zod-without-compilers',
  setup(esbuild) {
    const stubs = {
      'compile.js': [
        'export const INVALID = Symbol.for("zod.compile.invalid");',
        'export class ZodCompileAsyncError extends Error {}',
        'export class ZodCompileUnsupportedError extends Error {}',
        'const absent = () => { throw new Error("z.compile is not bundled with meshlens"); };',
        'export const compile = absent, withParser = absent, compileFn = absent;',
      ].join('\n'),
      'from-json-schema.js':
        'export function fromJSONSchema() { throw new Error("z.fromJSONSchema is not bundled with meshlens"); }',
    };
    const importers = [
      path.join('zod', 'v4', 'core', 'index.js'),
      path.join('zod', 'v4', 'classic', 'external.js'),
    ];
    esbuild.onResolve({ filter: /^\.\/(compile|from-json-schema)\.js$/ }, (args) =>
      importers.some((importer) => args.importer.endsWith(`${path.sep}node_modules${path.sep}${importer}`))
        ? { path: path.basename(args.path), namespace: 'zod-stub' }
        : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: 'zod-stub' }, (args) => ({ contents: stubs[args.path] }));
  },
};

// jsonc-parser's "main" is a UMD build whose factory requires its own files at run time, which a bundle cannot
// follow; its ESM build (lib/esm, next to lib/umd) bundles like any other module.
const jsoncParserEsm = {
  name: 'meshlens-jsonc-parser-esm',
  setup(esbuild) {
    const umd = createRequire(import.meta.url).resolve('jsonc-parser');
    const esm = path.join(path.dirname(umd), '..', 'esm', 'main.js');
    esbuild.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: esm }));
  },
};

// The thin daemon clients (`serve` over stdio, an operation command a daemon answers) are one file of their
// own, built below without shared chunks: the entry imports it as it stands in dist/.
const daemonClientsApart = {
  name: 'meshlens-daemon-clients-apart',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\/daemon-clients\.js$/ }, (args) =>
      args.importer.endsWith(path.join('src', 'cli', 'bin.ts'))
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

const define = {
  MESHLENS_VERSION: JSON.stringify(pkg.version),
  MESHLENS_EXTRACTION_HASH: JSON.stringify(await extractionHash()),
};

await build({
  absWorkingDir: root,
  plugins: [daemonClientsApart, withoutAjv, zodEnglishOnly, zodWithoutCompilers, jsoncParserEsm],
  entryPoints,
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // pg and its migration tool load only for a PostgreSQL store, from node_modules like the native packages.
  external: ['better-sqlite3', '@parcel/watcher', 'web-tree-sitter', 'piscina', 'pg', 'node-pg-migrate'],
  define,
  banner: {
    // Bundled CommonJS dependencies call require(); give them one in the ESM output.
    js: "import { createRequire as __meshlensCreateRequire } from 'node:module';\nconst require = __meshlensCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});

// One file, no chunks: a client whose daemon answers reads nothing else of meshlens. It shares no state with
// the main bundle (it loads none of its modules), so the few modules both carry may exist twice.
await build({
  absWorkingDir: root,
  entryPoints: { 'daemon-clients': 'src/cli/daemon-clients.ts' },
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  define,
  logLevel: 'warning',
});

const cli = path.join(out, 'meshlens.js');
await writeFile(cli, `#!/usr/bin/env node\n${await readFile(cli, 'utf8')}`);
await chmod(cli, 0o755);

// The PostgreSQL schema ships as SQL files that the migration tool reads at run time.
const migrationsOut = path.join(out, 'migrations', 'postgres');
await mkdir(migrationsOut, { recursive: true });
for (const file of await readdir(path.join(root, 'migrations', 'postgres'))) {
  await copyFile(path.join(root, 'migrations', 'postgres', file), path.join(migrationsOut, file));
}

// The grammars ship as .wasm inside their npm packages; copy the ones the language registry names next to
// the bundle.
const grammarsOut = path.join(out, 'grammars');
await mkdir(grammarsOut, { recursive: true });
for (const grammar of await registeredGrammars(root)) {
  await copyFile(path.join(root, 'node_modules', grammar.from), path.join(grammarsOut, grammar.file));
}
