import { describe, expect, it } from 'vitest';
import { matchingLines } from '../../src/ops/code/grep-lines.js';
import { expandBraces, pathFilter } from '../../src/ops/code/path-filter.js';

const lines = (text: string, pattern: string, flags = '', keep = 100, stopAt = 1000) =>
  matchingLines(text, new RegExp(pattern, `gm${flags}`), keep, stopAt);

describe('matchingLines', () => {
  it('reports each matching line once, with the column of its first match', () => {
    expect(lines('foo bar foo\nnone\n  foo\n', 'foo')).toEqual({
      lines: [
        { line: 1, column: 1 },
        { line: 3, column: 3 },
      ],
      count: 2,
    });
  });

  it('never matches across a line break, like ripgrep', () => {
    expect(lines('alpha\nbeta\n', 'alpha\\s+beta').count).toBe(0);
    expect(lines('a  \nb c\n', '\\s+c')).toEqual({ lines: [{ line: 2, column: 2 }], count: 1 });
    expect(lines('end\nstart here\n', 'd\\nstart|here')).toEqual({
      lines: [{ line: 2, column: 7 }],
      count: 1,
    });
  });

  it('anchors ^ and $ at each line, and counts an empty match on every line but the one after the last break', () => {
    expect(lines('x\ny\n', '^').count).toBe(2);
    expect(lines('x\n\ny', '^$')).toEqual({ lines: [{ line: 2, column: 1 }], count: 1 });
    expect(lines('', '^').count).toBe(0);
  });

  it('ignores a carriage return at the end of a line', () => {
    expect(lines('one\r\ntwo\r\n', 'one$')).toEqual({ lines: [{ line: 1, column: 1 }], count: 1 });
  });

  it('keeps the first lines and stops counting at the cap', () => {
    const text = Array.from({ length: 10 }, (_, i) => `hit ${i}`).join('\n');
    expect(lines(text, 'hit', '', 3)).toEqual({
      lines: [
        { line: 1, column: 1 },
        { line: 2, column: 1 },
        { line: 3, column: 1 },
      ],
      count: 10,
    });
    expect(lines(text, 'hit', '', 3, 4).count).toBe(4);
  });
});

describe('pathFilter', () => {
  const paths = [
    'services/payment/server.go',
    'services/payment/server_test.go',
    'services/web/app.ts',
    'proto/x.proto',
  ];
  const kept = (spelling: string) => paths.filter(pathFilter(spelling) as (p: string) => boolean);

  it('takes a folder or a file, workspace-relative', () => {
    expect(kept('services/payment')).toEqual(paths.slice(0, 2));
    expect(kept('./services/payment/')).toEqual(paths.slice(0, 2));
    expect(kept('services/pay')).toEqual([]);
    expect(kept('proto/x.proto')).toEqual(['proto/x.proto']);
    expect(pathFilter('.')).toBeUndefined();
  });

  it('takes ripgrep globs: any depth without a slash, braces, and ! to exclude', () => {
    expect(kept('*.go')).toEqual(paths.slice(0, 2));
    expect(kept('!*_test.go')).toEqual([paths[0], paths[2], paths[3]]);
    expect(kept('services/**/*.{ts,proto}')).toEqual(['services/web/app.ts']);
    expect(kept('*.{ts,proto}')).toEqual(['services/web/app.ts', 'proto/x.proto']);
    expect(expandBraces('a{b,c}d{e,f}')).toEqual(['abde', 'abdf', 'acde', 'acdf']);
  });
});
