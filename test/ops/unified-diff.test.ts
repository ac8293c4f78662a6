/**
 * The hunk headers of `git diff -U0` read into working-tree line ranges, and the test-file conventions
 * table the tests worth running are recognised by.
 */
import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff, touches } from '../../src/ops/contracts/diff/unified-diff.js';
import { TEST_FILE_CONVENTIONS } from '../../src/ops/shared/test-files.js';
import { isTestPath } from '../../src/ops/shared/workspace-paths.js';

const DIFF = [
  'diff --git a/svc/server.go b/svc/server.go',
  'index 1111111..2222222 100644',
  '--- a/svc/server.go',
  '+++ b/svc/server.go',
  '@@ -10 +10 @@ func a() {',
  '-\treturn 1',
  '+\treturn 2',
  '@@ -20,3 +19,0 @@ func b() {',
  '-x',
  '-y',
  '-z',
  '@@ -40,0 +40,2 @@',
  '+p',
  '+q',
  'diff --git "a/docs/read me \\303\\274.md" "b/docs/read me \\303\\274.md"',
  'deleted file mode 100644',
  '--- "a/docs/read me \\303\\274.md"',
  '+++ /dev/null',
  '@@ -1,2 +0,0 @@',
  '-old',
  '-text',
  'diff --git a/new.ts b/new.ts',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/new.ts',
  '@@ -0,0 +1 @@',
  '+export const x = 1;',
  '',
].join('\n');

describe('git diff -U0 hunks', () => {
  it('reads each file with its status and working-tree ranges, C-quoted names included', () => {
    expect(parseUnifiedDiff(DIFF)).toEqual([
      {
        path: 'svc/server.go',
        status: 'modified',
        ranges: [
          { start: 10, end: 10, deletion: false },
          { start: 19, end: 20, deletion: true },
          { start: 40, end: 41, deletion: false },
        ],
      },
      { path: 'docs/read me ü.md', status: 'deleted', ranges: [{ start: 0, end: 1, deletion: true }] },
      { path: 'new.ts', status: 'added', ranges: [{ start: 1, end: 1, deletion: false }] },
    ]);
  });

  it('a deletion touches only a declaration spanning both sides of the gap', () => {
    const gap = { start: 19, end: 20, deletion: true };
    expect(touches(gap, 15, 25)).toBe(true);
    expect(touches(gap, 15, 19)).toBe(false);
    expect(touches(gap, 20, 30)).toBe(false);
    expect(touches({ start: 10, end: 12, deletion: false }, 12, 30)).toBe(true);
  });
});

describe('test-file conventions', () => {
  it('one table recognises each ecosystem, and nothing else', () => {
    const tests = [
      'services/payment/server_test.go',
      'shipping/test_stock.py',
      'shipping/stock_test.py',
      'src/orders/order.service.spec.ts',
      'src/orders/order.service.test.tsx',
      'src/test/java/shop/BillingTest.java',
      'Accounting.Tests/LedgerTests.cs',
      'tests/integration.rs',
      'app/__tests__/x.js',
    ];
    for (const file of tests) expect(isTestPath(file), file).toBe(true);
    for (const file of ['services/payment/server.go', 'src/testing.ts', 'src/contest.py', 'src/Tester.java'])
      expect(isTestPath(file), file).toBe(false);
    expect(TEST_FILE_CONVENTIONS.length).toBe(6);
  });
});
