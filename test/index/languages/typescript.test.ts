import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { nextRoute } from '../../../src/index/languages/typescript/routes.js';
import { extractTypeScript } from '../../../src/index/languages/typescript/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

// Per-file facts of TypeScript and JavaScript are golden cases under test/golden/typescript.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// The grammar package ships the wasm under the name the language table expects.
const grammarsDir = path.join(root, 'node_modules/tree-sitter-typescript');

describe('typescript', () => {
  test('Next.js routes come from the file path', () => {
    expect(nextRoute('web/pages/api/index.ts')).toEqual({ kind: 'pages', path: '/api' });
    expect(nextRoute('src/pages/api/users/[...slug].js')).toEqual({
      kind: 'pages',
      path: '/api/users/{slug}',
    });
    expect(nextRoute('app/(shop)/cart/[[...items]]/route.ts')).toEqual({
      kind: 'app',
      path: '/cart/{items}',
    });
    expect(nextRoute('apps/web/app/@modal/health/route.js')).toEqual({ kind: 'app', path: '/health' });
    expect(nextRoute('pages/api/_middleware.ts')).toBe(undefined);
    expect(nextRoute('pages/about.tsx')).toBe(undefined);
    expect(nextRoute('app/orders/page.tsx')).toBe(undefined);
  });

  // Only same-file base classes are followed: the stub field below lives in `./grpc-base`.
  test.fails('a client field inherited from a base class in another file is traced', async () => {
    const source = [
      "import { GrpcBase } from './grpc-base';",
      'export class Refunds extends GrpcBase {',
      '  refund(id: string) {',
      '    return this.payments.refundPayment({ id });',
      '  }',
      '}',
    ].join('\n');
    const outcome = await parseFile(
      { path: 'src/refunds.ts', language: 'typescript', source },
      { grammarsDir, extractors: { typescript: extractTypeScript } },
    );
    expect(outcome.kind === 'parsed' ? outcome.facts.contracts : []).toHaveLength(1);
  });
});
