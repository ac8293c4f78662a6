import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

const filesUnder = (dir: string, ext: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry.endsWith(ext))
    .map((entry) => path.join(dir, entry));

describe('the bundle', () => {
  test('ships no Ajv: the SDK validator is replaced, and nothing in meshlens could need it', () => {
    const bundled = filesUnder(path.join(ROOT, 'dist'), '.js');
    const containing = (text: string) => bundled.filter((file) => readFileSync(file, 'utf8').includes(text));
    // Ajv's own error text: present in any bundle that carries the library (the build before this one did).
    expect(containing('ajv implementation error')).toEqual([]);
    expect(containing('meshlens does not validate elicitation answers')).toHaveLength(1);
    // The SDK needs a JSON-Schema validator only for answers to elicitation requests; meshlens sends none.
    const sources = filesUnder(path.join(ROOT, 'src'), '.ts').filter((file) =>
      /elicitInput|elicitation\/create/.test(readFileSync(file, 'utf8')),
    );
    expect(sources).toEqual([]);
  });

  test("carries zod's English messages only, not the ~50 other languages it ships", () => {
    const bundled = filesUnder(path.join(ROOT, 'dist'), '.js');
    const containing = (text: string) => bundled.filter((file) => readFileSync(file, 'utf8').includes(text));
    expect(containing('Ungültige Eingabe')).toEqual([]);
    expect(containing('Invalid input')).not.toEqual([]);
  });

  test("carries neither zod's parser compiler nor its JSON Schema reader, which nothing in meshlens calls", () => {
    const bundled = filesUnder(path.join(ROOT, 'dist'), '.js');
    const containing = (text: string) => bundled.filter((file) => readFileSync(file, 'utf8').includes(text));
    // Text from the real modules (core/compile.js, classic/from-json-schema.js); the build keeps stubs.
    expect(containing('z.compile does not support')).toEqual([]);
    expect(containing('z.fromJSONSchema is not bundled with meshlens')).toHaveLength(1);
    const sources = filesUnder(path.join(ROOT, 'src'), '.ts').filter((file) =>
      /\bz\.(compile|fromJSONSchema|withParser)\b|\bfrom 'zod\/compile'/.test(readFileSync(file, 'utf8')),
    );
    expect(sources).toEqual([]);
  });
});
