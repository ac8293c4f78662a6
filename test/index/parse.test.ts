import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emptyFacts, type LanguageId } from '../../src/index/facts.js';
import type { Extractor, ExtractorMap } from '../../src/index/languages/extractor.js';
import { GRAMMARS, grammarOf, LANGUAGES, languageOf } from '../../src/index/languages/registry.js';
import { findGrammarsDir, loadLanguage, parseFile, type ParseJob } from '../../src/index/parse/parser.js';
import { createParsePool, findWorkerFile } from '../../src/index/parse/pool.js';
import { workByLanguage } from '../../src/index/parse/lanes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The test builds its own worker and grammars folder instead of relying on dist/: dist may be stale or
// being rebuilt (the build empties it first) by another process. It lives under node_modules so that the
// bundle's external imports (web-tree-sitter, piscina) resolve.
const scratch = path.join(root, 'node_modules', '.cache', `meshlens-parse-test-${process.pid}`);
const grammarsDir = path.join(scratch, 'grammars');
const workerPath = path.join(scratch, 'parse-worker.js');

beforeAll(async () => {
  await mkdir(grammarsDir, { recursive: true });
  for (const grammar of GRAMMARS) {
    await copyFile(path.join(root, 'node_modules', grammar.from), path.join(grammarsDir, grammar.file));
  }
  await build({
    absWorkingDir: root,
    entryPoints: { 'parse-worker': 'src/index/parse/worker.ts' },
    outdir: scratch,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['web-tree-sitter', 'piscina'],
    // As in scripts/build.mjs: bundled CommonJS dependencies (yaml, protobufjs) call require().
    banner: {
      js: "import { createRequire as __meshlensCreateRequire } from 'node:module';\nconst require = __meshlensCreateRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('language table', () => {
  const DETECTION: Record<LanguageId | 'none', readonly string[]> = {
    typescript: ['services/api/src/main.ts', 'a/b.mts', 'a/b.cts'],
    tsx: ['web/App.tsx', 'web/App.jsx'],
    javascript: ['web/index.js', 'web/index.mjs', 'web/index.cjs'],
    go: ['svc/main.go'],
    java: ['svc/Main.java', 'svc/Main.JAVA'],
    kotlin: ['svc/Main.kt', 'build.gradle.kts'],
    python: ['svc/app.py', 'svc/stubs.pyi'],
    rust: ['svc/lib.rs'],
    csharp: ['svc/Program.cs'],
    cpp: ['native/a.cc', 'native/a.cpp', 'native/a.cxx', 'native/a.hpp', 'native/a.hh', 'native/a.h'],
    c: ['native/a.c'],
    ruby: ['app/models/user.rb'],
    php: ['web/index.php'],
    scala: ['svc/Main.scala', 'build.sc'],
    elixir: ['lib/shop_web/router.ex', 'mix.exs'],
    proto: ['proto/shop/v1/order.proto'],
    openapi: [
      'api/openapi.yaml',
      'api/openapi-v2.yml',
      'api/openapi.json',
      'api/orders.openapi.yaml',
      'swagger.json',
    ],
    asyncapi: ['api/asyncapi.yaml', 'api/asyncapi-events.json'],
    spring: [
      'src/main/resources/application.yml',
      'src/main/resources/application-dev.yaml',
      'src/main/resources/application.properties',
      'src/main/resources/bootstrap.yml',
      'src/main/resources/bootstrap-prod.properties',
    ],
    yaml: ['deploy/values.yaml', '.github/workflows/ci.yml'],
    markdown: ['README.md', 'docs/adr/0001.MD', 'docs/page.mdx', 'docs\\windows\\notes.markdown'],
    none: ['package.json', 'other.properties', 'Makefile', '.ts', 'logo.png'],
  };
  test.each(Object.entries(DETECTION).flatMap(([language, files]) => files.map((file) => [file, language])))(
    '%s → %s',
    (file, language) => {
      expect(languageOf(file)).toBe(language === 'none' ? undefined : language);
    },
  );

  test('JavaScript and JSX use the TSX grammar, TypeScript its own, proto none', () => {
    expect(grammarOf('javascript')).toBe('tree-sitter-tsx.wasm');
    expect(grammarOf('tsx')).toBe('tree-sitter-tsx.wasm');
    expect(grammarOf('typescript')).toBe('tree-sitter-typescript.wasm');
    for (const language of ['proto', 'openapi', 'asyncapi', 'spring', 'yaml', 'markdown'] as const) {
      expect(grammarOf(language)).toBeUndefined();
    }
  });
});

// [file, root node type, source]: a small real program per grammar.
const SNIPPET_ROWS: Record<LanguageId, readonly [string, string, string]> = {
  typescript: [
    'a.ts',
    'program',
    'import { b } from "./b";\nexport const id = <T,>(x: T): T => x;\nclass A {}\n',
  ],
  tsx: ['a.tsx', 'program', 'export const App = (p: { n: string }) => <div className="x">{p.n}</div>;\n'],
  javascript: [
    'a.js',
    'program',
    'import R from "react";\nexport function App() { return <main>hi</main>; }\n',
  ],
  go: ['a.go', 'source_file', 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hi") }\n'],
  java: [
    'A.java',
    'program',
    'package a;\nimport java.util.List;\nclass B { int c(List<String> l) { return 1; } }\n',
  ],
  kotlin: ['a.kt', 'source_file', 'package a\n\nfun main() {\n    println("hi")\n}\n'],
  python: ['a.py', 'module', 'import os\n\nclass A:\n    def b(self) -> int:\n        return 1\n'],
  rust: [
    'a.rs',
    'source_file',
    'use std::fmt;\npub struct A { b: i32 }\nimpl A { fn c(&self) -> i32 { self.b } }\n',
  ],
  csharp: [
    'A.cs',
    'compilation_unit',
    'using System;\nnamespace A { public class B { int C() { return 1; } } }\n',
  ],
  cpp: [
    'a.cpp',
    'translation_unit',
    '#include <vector>\nnamespace a { class B { public: int c() const; }; }\n',
  ],
  c: ['a.c', 'translation_unit', '#include <stdio.h>\nint main(void) { return 0; }\n'],
  ruby: ['a.rb', 'program', 'class A\n  def hi\n    "hi"\n  end\nend\n'],
  php: ['a.php', 'program', '<?php\nfunction hi(): string { return "hi"; }\n'],
  elixir: ['a.ex', 'source', 'defmodule A do\n  def hi, do: "hi"\nend\n'],
  lua: ['a.lua', 'chunk', 'local M = {}\nfunction M.hi(name)\n  return "hi " .. name\nend\nreturn M\n'],
  scala: [
    'A.scala',
    'compilation_unit',
    'object Main {\n  def main(args: Array[String]): Unit = println("hi")\n}\n',
  ],
};
const SNIPPETS = Object.fromEntries(
  Object.entries(SNIPPET_ROWS).map(([language, [file, root, source]]) => [language, { file, root, source }]),
) as Record<LanguageId, { readonly file: string; readonly root: string; readonly source: string }>;

/** An extractor that reports what it saw, to look at the tree without exporting it from the parser. */
function probe(seen: { root?: string; hasError?: boolean }): Extractor {
  return (input) => {
    seen.root = input.tree?.rootNode.type;
    seen.hasError = input.tree?.rootNode.hasError;
    return { ...emptyFacts(input.language), package: `probe:${input.path}` };
  };
}

describe('parseFile', () => {
  const withGrammar = LANGUAGES.filter((spec) => spec.grammar !== undefined).map((spec) => spec.id);

  test('the table and the snippets cover the same languages', () => {
    expect(Object.keys(SNIPPETS).sort()).toEqual([...withGrammar].sort());
  });

  test.each(withGrammar)(
    'loads the %s grammar and parses a real snippet without errors',
    async (language) => {
      const snippet = SNIPPETS[language];
      if (snippet === undefined) throw new Error(`no snippet for ${language}`);
      expect(languageOf(snippet.file)).toBe(language);
      expect(await loadLanguage(language, grammarsDir)).toBeDefined();
      const seen: { root?: string; hasError?: boolean } = {};
      const outcome = await parseFile(
        { path: snippet.file, language, source: snippet.source },
        { grammarsDir, extractors: { [language]: probe(seen) } },
      );
      expect(outcome).toEqual({
        kind: 'parsed',
        facts: { ...emptyFacts(language), package: `probe:${snippet.file}` },
      });
      expect(seen).toEqual({ root: snippet.root, hasError: false });
    },
  );

  test('a long Scala file with multi-byte text parses whole: every class name reads back as written', async () => {
    // Longer than several of web-tree-sitter's 5,119-character reads, with accents and emoji (surrogate pairs)
    // in strings and comments, so that reads start mid-line, re-read the start of lines, and cross pairs.
    const names = Array.from({ length: 240 }, (_, i) => `Café${i}Service`);
    const source = names
      .map(
        (name, i) =>
          `// 🚀 ${'é'.repeat(i % 7)} note ${i}\nclass ${name}(val id: Int) {\n  def greet(): String = "héllo 🚀 ${i}"\n}\n`,
      )
      .join('\n');
    expect(source.length).toBeGreaterThan(3 * 5_119);
    const seen: { names: string[]; hasError?: boolean; end?: number } = { names: [] };
    const extractors: ExtractorMap = {
      scala: ({ tree }) => {
        const root = tree?.rootNode;
        seen.hasError = root?.hasError;
        seen.end = root?.endIndex;
        for (const node of root?.descendantsOfType('class_definition') ?? [])
          seen.names.push(node?.childForFieldName('name')?.text ?? '');
        return emptyFacts('scala');
      },
    };
    const outcome = await parseFile(
      { path: 'A.scala', language: 'scala', source },
      { grammarsDir, extractors },
    );
    expect(outcome.kind).toBe('parsed');
    expect(seen).toEqual({ names, hasError: false, end: source.length });
  });

  test('a language with a grammar but no extractor is parsed into empty facts', async () => {
    const job = { path: 'a.go', language: 'go', source: SNIPPETS.go?.source ?? '' } as const;
    expect(await parseFile(job, { grammarsDir, extractors: {} })).toEqual({
      kind: 'parsed',
      facts: emptyFacts('go'),
    });
  });

  test('a syntax error still yields a parsed file', async () => {
    const seen: { root?: string; hasError?: boolean } = {};
    const outcome = await parseFile(
      { path: 'broken.ts', language: 'typescript', source: 'export class {{{ (' },
      { grammarsDir, extractors: { typescript: probe(seen) } },
    );
    expect(outcome.kind).toBe('parsed');
    expect(seen.hasError).toBe(true);
  });

  test('a language without grammar runs its extractor on the source alone', async () => {
    const seen: { tree?: boolean; source?: string } = {};
    const extractors: ExtractorMap = {
      proto: (input) => {
        seen.tree = input.tree !== undefined;
        seen.source = input.source;
        return emptyFacts('proto');
      },
    };
    const job: ParseJob = { path: 'a.proto', language: 'proto', source: 'syntax = "proto3";' };
    expect(await parseFile(job, { grammarsDir, extractors })).toEqual({
      kind: 'no-grammar',
      facts: emptyFacts('proto'),
    });
    expect(seen).toEqual({ tree: false, source: 'syntax = "proto3";' });
    expect(await parseFile({ ...job, language: 'markdown' }, { grammarsDir, extractors: {} })).toEqual({
      kind: 'no-grammar',
      facts: emptyFacts('markdown'),
    });
  });

  test('an extractor that throws makes the file fail with its message', async () => {
    const job: ParseJob = { path: 'a.go', language: 'go', source: 'package main\n' };
    const outcome = await parseFile(job, {
      grammarsDir,
      extractors: {
        go: () => {
          throw new Error('boom');
        },
      },
    });
    expect(outcome).toEqual({ kind: 'failed', reason: 'extractor failed: boom', timedOut: false });
  });

  test('the deadline cancels a parse, and the next parse with that parser starts afresh', async () => {
    // 1.3 MB parses in about half a second; cancelling after 20 ms leaves the parser mid-way.
    const big = hugeTypeScript(20_000);
    const outcome = await parseFile(
      { path: 'big.ts', language: 'typescript', source: big },
      { grammarsDir, timeoutMs: 20 },
    );
    expect(outcome).toEqual({ kind: 'failed', reason: 'parse timed out after 20 ms', timedOut: true });

    const seen: { root?: string; hasError?: boolean } = {};
    const snippet = SNIPPETS.typescript?.source ?? '';
    const again = await parseFile(
      { path: 'a.ts', language: 'typescript', source: snippet },
      { grammarsDir, extractors: { typescript: probe(seen) } },
    );
    expect(again.kind).toBe('parsed');
    expect(seen).toEqual({ root: 'program', hasError: false });
  });

  test('a missing grammar is a failure that names the grammar, not the folder', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'meshlens-no-grammars-'));
    try {
      const outcome = await parseFile(
        { path: 'a.rb', language: 'ruby', source: 'x = 1\n' },
        { grammarsDir: empty },
      );
      expect(outcome).toEqual({
        kind: 'failed',
        reason: 'grammar tree-sitter-ruby.wasm could not be loaded: ENOENT',
        timedOut: false,
      });
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('locating the grammars and the worker', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'meshlens-layout-'));
    for (const dir of ['pkg/dist/grammars', 'pkg/dist/chunks', 'pkg/src/index/parse']) {
      await mkdir(path.join(tmp, dir), { recursive: true });
    }
    await writeFile(path.join(tmp, 'pkg/package.json'), '{}');
    await writeFile(path.join(tmp, 'pkg/dist/parse-worker.js'), '');
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  test.each(['pkg/dist', 'pkg/dist/chunks', 'pkg/src/index/parse'])('from %s', (start) => {
    expect(findGrammarsDir(path.join(tmp, start))).toBe(path.join(tmp, 'pkg/dist/grammars'));
    expect(findWorkerFile(path.join(tmp, start))).toBe(path.join(tmp, 'pkg/dist/parse-worker.js'));
  });

  test('the walk stops at the package root', async () => {
    await mkdir(path.join(tmp, 'other/src'), { recursive: true });
    await writeFile(path.join(tmp, 'other/package.json'), '{}');
    await mkdir(path.join(tmp, 'grammars'), { recursive: true });
    expect(findGrammarsDir(path.join(tmp, 'other/src'))).toBeUndefined();
    expect(findWorkerFile(path.join(tmp, 'other/src'))).toBeUndefined();
  });
});

describe('parse pool', () => {
  test('in-process and two worker threads give identical outcomes, in job order', async () => {
    const jobs = corpus();
    const inProcess = createParsePool({ threads: 0, grammarsDir });
    const workers = createParsePool({ threads: 2, grammarsDir, workerPath });
    try {
      expect(inProcess.mode).toBe('in-process');
      expect(workers.mode).toBe('workers');
      const progress: number[] = [];
      const streamed = new Map<number, unknown>();
      const a = await inProcess.parseAll(jobs);
      const b = await workers.parseAll(jobs, {
        onProgress: (done, total) => progress.push(total - done),
        // Each job's final outcome is reported once, as its batch finishes, before parseAll resolves.
        onOutcome: (index, outcome) => {
          expect(streamed.has(index)).toBe(false);
          streamed.set(index, outcome);
        },
      });
      expect(b).toEqual(a);
      expect(streamed.size).toBe(jobs.length);
      b.forEach((outcome, index) => expect(streamed.get(index)).toBe(outcome));
      expect(a.map((outcome) => outcome.kind)).toEqual(
        jobs.map((job) => (grammarOf(job.language) ? 'parsed' : 'no-grammar')),
      );
      expect(progress).toHaveLength(jobs.length);
      expect(progress.at(-1)).toBe(0);
      // Reversing the input reverses the output: nothing depends on the order of work.
      expect(await workers.parseAll([...jobs].reverse())).toEqual([...a].reverse());
    } finally {
      await Promise.all([inProcess.close(), workers.close()]);
    }
  });

  test('warming the workers up first changes no outcome (grammars without a wasm file are skipped)', async () => {
    const jobs = corpus();
    const inProcess = createParsePool({ threads: 0, grammarsDir });
    const workers = createParsePool({ threads: 2, grammarsDir, workerPath });
    try {
      inProcess.warm?.(new Map([['typescript', 100]]));
      workers.warm?.(
        workByLanguage(jobs.map((job) => ({ language: job.language, bytes: job.source.length }))),
      );
      expect(await workers.parseAll(jobs)).toEqual(await inProcess.parseAll(jobs));
    } finally {
      await Promise.all([inProcess.close(), workers.close()]);
    }
    // After close, warming is a no-op rather than a thread start.
    workers.warm?.(new Map([['typescript', 100]]));
    expect(workers.workerStats().alive).toBe(0);
  });

  test('a file that fails is retried once in-process, then reported failed', async () => {
    let calls = 0;
    const pool = createParsePool({
      threads: 2,
      grammarsDir,
      extractors: {
        java: () => {
          calls += 1;
          throw new Error('cannot read annotations');
        },
      },
    });
    try {
      // Functions cannot cross threads: custom extractors force in-process parsing.
      expect(pool.mode).toBe('in-process');
      const jobs: ParseJob[] = [
        { path: 'A.java', language: 'java', source: SNIPPETS.java?.source ?? '' },
        { path: 'a.go', language: 'go', source: SNIPPETS.go?.source ?? '' },
      ];
      const outcomes = await pool.parseAll(jobs);
      expect(calls).toBe(2);
      expect(outcomes).toEqual([
        { kind: 'failed', reason: 'extractor failed: cannot read annotations', timedOut: false },
        { kind: 'parsed', facts: emptyFacts('go') },
      ]);
    } finally {
      await pool.close();
    }
  });

  test('a batch lost by a crashing worker is recovered by the in-process retry', async () => {
    const badWorker = path.join(scratch, 'bad-worker.mjs');
    await writeFile(badWorker, "export async function parseBatch() { throw new Error('worker crashed'); }\n");
    const pool = createParsePool({ threads: 2, grammarsDir, workerPath: badWorker });
    try {
      expect(pool.mode).toBe('workers');
      const jobs = corpus().slice(0, 20);
      const expected = await createParsePool({ threads: 0, grammarsDir }).parseAll(jobs);
      expect(await pool.parseAll(jobs)).toEqual(expected);
      // Every batch was lost: 20 jobs of 9 languages make 9 batches of one language each.
      expect(pool.workerStats().lostBatches).toBe(new Set(jobs.map((job) => job.language)).size);
    } finally {
      await pool.close();
    }
  });

  test('a file that times out in a worker times out again in the retry and is reported as a timeout', async () => {
    const pool = createParsePool({ threads: 2, grammarsDir, workerPath, timeoutMs: 0 });
    try {
      const outcomes = await pool.parseAll([
        { path: 'big.ts', language: 'typescript', source: hugeTypeScript(20_000) },
      ]);
      expect(outcomes).toEqual([{ kind: 'failed', reason: 'parse timed out after 0 ms', timedOut: true }]);
    } finally {
      await pool.close();
    }
  });

  test.each([0, 2])('an aborted run rejects with the signal reason (threads %i)', async (threads) => {
    const pool = createParsePool({ threads, grammarsDir, workerPath });
    try {
      const controller = new AbortController();
      const run = pool.parseAll(corpus(), {
        signal: controller.signal,
        onProgress: (done) => {
          if (done === 1) controller.abort(new Error('stop'));
        },
      });
      await expect(run).rejects.toThrow('stop');
      // The pool stays usable after an aborted run.
      expect((await pool.parseAll(corpus().slice(0, 3))).map((outcome) => outcome.kind)).toEqual([
        'parsed',
        'parsed',
        'parsed',
      ]);
    } finally {
      await pool.close();
    }
  });

  test('an onOutcome that throws rejects the run with its error; the pool stays usable', async () => {
    const pool = createParsePool({ threads: 2, grammarsDir, workerPath });
    try {
      const run = pool.parseAll(corpus(), {
        onOutcome: () => {
          throw new Error('store full');
        },
      });
      await expect(run).rejects.toThrow('store full');
      expect((await pool.parseAll(corpus().slice(0, 2))).map((outcome) => outcome.kind)).toEqual([
        'parsed',
        'parsed',
      ]);
    } finally {
      await pool.close();
    }
  });

  test('the default worker is found from the sources only when dist holds one', () => {
    const pool = createParsePool({ threads: 2, grammarsDir });
    expect(pool.mode).toBe(existsSync(path.join(root, 'dist', 'parse-worker.js')) ? 'workers' : 'in-process');
  });
});

/** About 40 files per language across every language with a grammar, plus files without one. */
function corpus(): ParseJob[] {
  const jobs: ParseJob[] = [];
  for (let i = 0; i < 6; i += 1) {
    for (const [language, snippet] of Object.entries(SNIPPETS)) {
      jobs.push({
        path: `svc${i}/${snippet.file}`,
        language: language as LanguageId,
        source: `${snippet.source}\n`.repeat(i + 1),
      });
    }
    jobs.push({ path: `proto/v${i}.proto`, language: 'proto', source: 'syntax = "proto3";\n' });
    jobs.push({ path: `docs/${i}.md`, language: 'markdown', source: '# Title\n' });
  }
  return jobs;
}

/** Valid TypeScript large enough that parsing it takes many progress callbacks. */
function hugeTypeScript(classes: number): string {
  const lines: string[] = [];
  for (let i = 0; i < classes; i += 1)
    lines.push(`export class C${i} { m(x: number): number { return x + ${i}; } }`);
  return lines.join('\n');
}
