import { describe, expect, test } from 'vitest';
import {
  GUARD_LIMITS,
  checkContent,
  checkSize,
  isProse,
  isSchemaFile,
  usesHashComments,
} from '../../src/index/guard.js';

const buf = (text: string): Buffer => Buffer.from(text, 'utf8');
const line = (bytes: number, fill = 'x'): string => fill.repeat(bytes);
const nested = (depth: number): string => `${'{'.repeat(depth)}\n${'}'.repeat(depth)}\n`;

test('the limits are MeshMCP AstGuard constants', () => {
  expect(GUARD_LIMITS).toEqual({
    maxSourceBytes: 393_216,
    maxSchemaBytes: 1_572_864,
    binarySniffBytes: 4096,
    maxLineBytes: 1024,
    maxNestingDepth: 64,
  });
});

describe('checkSize', () => {
  test('source files: at the limit passes, one byte over is oversized', () => {
    expect(checkSize('src/a.ts', 393_216)).toEqual({ ok: true });
    expect(checkSize('src/a.ts', 393_217)).toEqual({
      ok: false,
      reason: 'oversized',
      detail: '393,217 bytes (limit 393,216)',
    });
    expect(checkSize('src/a.ts', 0)).toEqual({ ok: true });
  });

  test('schema and contract files get the 1.5 MB limit', () => {
    const schemas = [
      'proto/orders.proto',
      'gen/orders.pb.go',
      'gen/orders_grpc.pb.go',
      'java/OrdersOuterClass.java',
      'ts/orders.pb.ts',
      'py/orders_pb2.py',
      'rs/orders.pb.rs',
      'api/openapi.yaml',
      'api/openapi.yml',
      'api/openapi.json',
      'api/asyncapi.yaml',
      'api/asyncapi.yml',
      'api/asyncapi.json',
      'api/orders.openapi.yaml',
    ];
    for (const file of schemas) {
      expect(isSchemaFile(file), file).toBe(true);
      expect(checkSize(file, 1_572_864), file).toEqual({ ok: true });
      expect(checkSize(file, 1_572_865), file).toMatchObject({ ok: false, reason: 'oversized' });
    }
    expect(checkSize('api/openapi.yaml', 2_000_000)).toMatchObject({
      detail: '2,000,000 bytes (limit 1,572,864)',
    });
    for (const file of ['src/proto.ts', 'config.yaml', 'openapi.ts', 'api/myopenapi.yaml', 'Orders.java']) {
      expect(isSchemaFile(file), file).toBe(false);
      expect(checkSize(file, 1_000_000).ok, file).toBe(false);
    }
  });
});

describe('checkContent', () => {
  test('a NUL byte in the first 4,096 bytes is binary; one after that is not looked for', () => {
    const early = Buffer.alloc(4096, 0x61);
    early[4095] = 0;
    expect(checkContent('a.ts', early)).toEqual({
      ok: false,
      reason: 'binary',
      detail: 'NUL byte at offset 4,095',
    });
    const late = Buffer.alloc(5000, 0x0a);
    late[4096] = 0;
    expect(checkContent('a.ts', late)).toEqual({ ok: true });
    expect(checkContent('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))).toMatchObject({
      reason: 'binary',
    });
  });

  test('a line over 1,024 bytes is rejected with its number; 1,024 bytes (plus CR) passes', () => {
    expect(checkContent('a.ts', buf(`a\n${line(1024)}\n${line(1024)}\r\nb`))).toEqual({ ok: true });
    expect(checkContent('a.ts', buf(`a\n${line(1025)}\nb\n`))).toEqual({
      ok: false,
      reason: 'long_line',
      detail: 'line 2 is 1,025 bytes (limit 1,024)',
    });
    // The last line without a trailing newline counts too.
    expect(checkContent('a.ts', buf(`a\n\n${line(4210)}`))).toMatchObject({
      detail: 'line 3 is 4,210 bytes (limit 1,024)',
    });
    // Bytes, not characters: 513 two-byte characters are 1,026 bytes.
    expect(checkContent('a.ts', buf(line(513, 'é')))).toMatchObject({ reason: 'long_line' });
  });

  test('trailing whitespace does not make a line long: a padded hand-written line passes', () => {
    const padded = `const app = express();${' '.repeat(2200)}\t \r\napp.post('/x', h);\n`;
    expect(checkContent('index.js', buf(padded))).toEqual({ ok: true });
    expect(checkContent('index.js', buf(`${line(1025)}${' '.repeat(50)}\n`))).toEqual({
      ok: false,
      reason: 'long_line',
      detail: 'line 1 is 1,025 bytes (limit 1,024)',
    });
  });

  test('a minified bundle is rejected; a Markdown paragraph on one long line is not', () => {
    const minified = `!function(){${'var a=1;'.repeat(400)}}();`;
    expect(checkContent('vendor/app.min.js', buf(minified))).toMatchObject({
      ok: false,
      reason: 'long_line',
    });
    const doc = `# Title\n\n${'A long paragraph sentence. '.repeat(200)}\n`;
    expect(isProse('docs/adr/0001.md')).toBe(true);
    expect(checkContent('docs/adr/0001.md', buf(doc))).toEqual({ ok: true });
    // The caller can still ask for the check explicitly.
    expect(checkContent('docs/adr/0001.md', buf(doc), { checkLineLength: true })).toMatchObject({
      reason: 'long_line',
    });
    expect(checkContent('vendor/app.min.js', buf(minified), { checkLineLength: false })).toEqual({
      ok: true,
    });
  });

  test('nesting depth 64 passes, 65 is rejected; all three bracket kinds count together', () => {
    expect(checkContent('a.ts', buf(nested(64)))).toEqual({ ok: true });
    expect(checkContent('a.ts', buf(nested(65)))).toEqual({
      ok: false,
      reason: 'nesting',
      detail: 'nesting depth 65 at line 1 (limit 64)',
    });
    const mixed = `${'([{'.repeat(21)}((\n`;
    expect(checkContent('a.ts', buf(mixed))).toMatchObject({ reason: 'nesting' });
    expect(checkContent('a.ts', buf(`${'([{'.repeat(21)}(\n`))).toEqual({ ok: true });
    // Closing brackets bring the depth back down: many shallow blocks are fine.
    expect(checkContent('a.ts', buf(nested(60).repeat(50)))).toEqual({ ok: true });
    expect(checkContent('a.ts', buf(nested(65)), { checkNesting: false })).toEqual({ ok: true });
    expect(checkContent('README.md', buf(nested(100)))).toEqual({ ok: true });
  });

  test('brackets inside comments and strings do not count toward nesting', () => {
    const deep = line(100, '(');
    const cases = [
      `// ${deep}\nok();\n`,
      `/* ${deep}\n${deep} */ ok();\n`,
      `const s = "${deep}";\n`,
      `const s = '${deep}';\n`,
      `const s = \`${deep}\n${deep}\`;\n`,
      `const s = "\\"${deep}";\n`,
      `const s = '\\'${deep}';\n`,
    ];
    for (const source of cases)
      expect(checkContent('a.ts', buf(source)), source.slice(0, 20)).toEqual({ ok: true });
    // Code after a comment or a string is counted again.
    expect(checkContent('a.ts', buf(`/* ( */ "(" // (\n${nested(65)}`))).toMatchObject({
      reason: 'nesting',
      detail: 'nesting depth 65 at line 2 (limit 64)',
    });
  });

  test('# comments are skipped only where the language has them', () => {
    const source = `# ${line(100, '[')}\nx = 1\n`;
    expect(usesHashComments('tool.py')).toBe(true);
    expect(checkContent('tool.py', buf(source))).toEqual({ ok: true });
    expect(usesHashComments('lib.rs')).toBe(false);
    expect(checkContent('lib.rs', buf(source))).toMatchObject({ reason: 'nesting' });
    expect(checkContent('lib.rs', buf(source), { hashComments: true })).toEqual({ ok: true });
    expect(checkContent('tool.py', buf(source), { hashComments: false })).toMatchObject({
      reason: 'nesting',
    });
  });

  test('line numbers stay right across multi-line comments, template strings and escaped newlines', () => {
    const source = `/* a\n b */\nconst t = \`x\ny\`;\nconst s = "a\\\nb";\n${nested(65)}`;
    expect(checkContent('a.ts', buf(source))).toMatchObject({
      detail: 'nesting depth 65 at line 7 (limit 64)',
    });
  });

  test('a quote cut by the end of the line (a Rust lifetime) does not hide the lines after it', () => {
    const source = `fn f<'a>(x: &'a str) -> &'a str {\n${nested(65)}}\n`;
    expect(checkContent('lib.rs', buf(source))).toMatchObject({ reason: 'nesting' });
  });

  test('content over the size limit is oversized even if its metadata said otherwise', () => {
    const big = Buffer.alloc(GUARD_LIMITS.maxSourceBytes + 1, 0x0a);
    expect(checkContent('a.ts', big)).toMatchObject({ ok: false, reason: 'oversized' });
    expect(checkContent('a.proto', big)).toEqual({ ok: true });
  });

  test('a file just under every limit passes', () => {
    const row = `${'{'.repeat(64)}${line(1024 - 128)}${'}'.repeat(64)}\n`;
    const body = Buffer.from(row.repeat(Math.floor(GUARD_LIMITS.maxSourceBytes / row.length)));
    expect(body.length).toBeGreaterThan(GUARD_LIMITS.maxSourceBytes - row.length);
    expect(checkSize('a.ts', body.length)).toEqual({ ok: true });
    expect(checkContent('a.ts', body)).toEqual({ ok: true });
  });

  test('scanning a 384 KB source file costs a few passes over its bytes, not more', () => {
    const row = 'export function f(a: number): number { return [a, (a + 1) * 2].length; } // ok\n';
    const body = Buffer.from(row.repeat(Math.floor(GUARD_LIMITS.maxSourceBytes / row.length)));
    // Measured against one plain pass over the same bytes in the same process, so that a loaded machine or
    // a slower runtime slows both alike.
    const onePass = () => {
      let newlines = 0;
      for (let i = 0; i < body.length; i++) if (body[i] === 10) newlines++;
      return newlines;
    };
    const timed = (work: () => unknown) => {
      for (let i = 0; i < 5; i++) work(); // warm up the JIT
      const start = performance.now();
      for (let i = 0; i < 20; i++) work();
      return performance.now() - start;
    };
    const baseline = timed(onePass);
    const guard = timed(() => expect(checkContent('a.ts', body).ok).toBe(true));
    expect(guard / baseline).toBeLessThan(40);
  });
});

test('isProse covers documentation formats only', () => {
  for (const file of ['a.md', 'b.MARKDOWN', 'c.mdx', 'd.rst', 'e.txt', 'f.adoc'])
    expect(isProse(file), file).toBe(true);
  for (const file of ['a.ts', 'b.yaml', 'c.json', 'Makefile']) expect(isProse(file), file).toBe(false);
});
