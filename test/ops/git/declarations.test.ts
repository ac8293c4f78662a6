import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTemps } from '../../helpers/engine.js';
import { callTool, closeIndexed, openIndexed, type IndexedClient } from '../../helpers/indexed-client.js';
import { emptyRepo, historyRepo, SHAS, shallowClone, TOKEN } from './git-fixture.js';

let history: IndexedClient;
let shallow: IndexedClient;
let empty: IndexedClient;

beforeAll(async () => {
  const source = historyRepo();
  history = await openIndexed(source);
  shallow = await openIndexed(shallowClone(source, 2));
  empty = await openIndexed(emptyRepo());
}, 120_000);
afterAll(async () => {
  await closeIndexed(history, shallow, empty);
  removeTemps();
});

const names = (rows: unknown) =>
  (rows as { kind: string; qualified_name: string }[]).map((r) => `${r.kind} ${r.qualified_name}`);

describe('git diff_outline', () => {
  it('finds the declarations changed in the working tree against HEAD', async () => {
    const answer = await callTool(history, 'outline_diff', { path: 'src/order.ts' });
    expect(answer.isError).toBe(false);
    expect(answer.data).toMatchObject({
      rev: SHAS.refund,
      present_at_rev: true,
      added: [],
      removed: [],
      unchanged: 2,
    });
    expect(names(answer.data.changed)).toEqual(['class OrderService', 'method OrderService.refund']);
  });

  it('ignores whitespace-only edits and lists added declarations', async () => {
    const answer = await callTool(history, 'outline_diff', { path: 'src/order.ts', rev: SHAS.tax });
    expect(answer.data.added).toEqual([
      { kind: 'method', qualified_name: 'OrderService.refund', start_line: 12, end_line: 14 },
    ]);
    expect(answer.data.changed).toEqual([
      {
        kind: 'class',
        qualified_name: 'OrderService',
        start_line: 1,
        end_line: 15,
        old_start_line: 1,
        old_end_line: 10,
      },
    ]);
    expect(answer.data.unchanged).toBe(2);
  });

  it('sees every declaration as added when the file is not in the revision', async () => {
    const answer = await callTool(history, 'outline_diff', { path: 'src/helpers.ts', rev: SHAS.trim });
    expect(answer.data).toMatchObject({ present_at_rev: false, removed: [], changed: [], unchanged: 0 });
    expect(names(answer.data.added)).toEqual(['function trim']);
  });
});

type HunkRow = { start_line: number; end_line: number; commit: string | null };
const blameRows = (data: Record<string, unknown>) =>
  (data.hunks as HunkRow[]).map((h) => [h.start_line, h.end_line, h.commit]);

describe('git blame_symbol', () => {
  it('blames the lines of a declaration found through the index', async () => {
    const answer = await callTool(history, 'blame_symbol', {
      path: 'src/order.ts',
      name: 'OrderService.create',
    });
    expect(answer.isError).toBe(false);
    expect(answer.data).toMatchObject({
      kind: 'method',
      qualified_name: 'OrderService.create',
      start_line: 2,
      end_line: 6,
    });
    expect(blameRows(answer.data)).toEqual([
      [2, 2, SHAS.add],
      [3, 4, SHAS.refund],
      [5, 5, SHAS.tax],
      [6, 6, SHAS.add],
    ]);
  });

  it('finds the declaration again at an older revision', async () => {
    const answer = await callTool(history, 'blame_symbol', {
      symbol: 'src/order.ts:OrderService.create',
      rev: SHAS.tax,
    });
    expect(answer.data).toMatchObject({ start_line: 2, end_line: 5 });
    expect(blameRows(answer.data)).toEqual([
      [2, 2, SHAS.add],
      [3, 4, SHAS.tax],
      [5, 5, SHAS.add],
    ]);
  });

  it('masks secrets in uncommitted lines and says a declaration is missing at a revision', async () => {
    const refund = await callTool(history, 'blame_symbol', { path: 'src/order.ts', name: 'refund' });
    expect(blameRows(refund.data)).toContainEqual([13, 13, null]);
    expect(refund.text).not.toContain(TOKEN);
    const before = await callTool(history, 'blame_symbol', {
      path: 'src/order.ts',
      name: 'refund',
      rev: SHAS.tax,
    });
    expect(before.isError).toBe(true);
    expect(before.text).toBe(
      `method \`OrderService.refund\` is not declared in the file at \`${(SHAS.tax as string).slice(0, 7)}\`.`,
    );
  });

  it('answers a repository without commits', async () => {
    const answer = await callTool(empty, 'blame_symbol', { path: 'src/start.ts', name: 'start' });
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain('has no commits yet');
  });
});

const historyRows = (data: Record<string, unknown>) =>
  (data.commits as { subject: string; change: string; path: string }[]).map((c) => [
    c.subject,
    c.change,
    c.path,
  ]);

describe('git symbol_history', () => {
  it('lists the commits that changed the body, whitespace edits left out', async () => {
    const answer = await callTool(history, 'symbol_history', {
      path: 'src/order.ts',
      name: 'OrderService.create',
    });
    expect(answer.isError).toBe(false);
    expect(historyRows(answer.data)).toEqual([
      ['tax on create', 'changed', 'src/order.ts'],
      ['add order service', 'introduced', 'src/order.ts'],
    ]);
    expect(answer.data).toMatchObject({ changed_since_head: false, truncated: false, next_cursor: null });
  });

  it('follows the declaration through a rename', async () => {
    const answer = await callTool(history, 'symbol_history', { path: 'src/helpers.ts', name: 'trim' });
    expect(historyRows(answer.data)).toEqual([
      ['util: trim', 'changed', 'src/util.ts'],
      ['add order service', 'introduced', 'src/util.ts'],
    ]);
  });

  it('says an uncommitted change is there, and pages with a cursor', async () => {
    const refund = await callTool(history, 'symbol_history', { path: 'src/order.ts', name: 'refund' });
    expect(historyRows(refund.data)).toEqual([['reformat and add refund', 'introduced', 'src/order.ts']]);
    expect(refund.data.changed_since_head).toBe(true);
    const first = await callTool(history, 'symbol_history', {
      path: 'src/order.ts',
      name: 'OrderService',
      limit: 1,
    });
    const second = await callTool(history, 'symbol_history', {
      path: 'src/order.ts',
      name: 'OrderService',
      limit: 1,
      cursor: first.data.next_cursor,
    });
    expect([...historyRows(first.data), ...historyRows(second.data)].map((r) => r[0])).toEqual([
      'reformat and add refund',
      'tax on create',
    ]);
  });

  it('reports where a shallow clone cuts the history off', async () => {
    const answer = await callTool(shallow, 'symbol_history', {
      path: 'src/order.ts',
      name: 'OrderService.create',
    });
    expect(historyRows(answer.data)).toEqual([['move util to helpers', 'oldest_version', 'src/order.ts']]);
    expect(answer.data).toMatchObject({ truncated: true });
  });

  it('answers a repository without commits', async () => {
    const answer = await callTool(empty, 'symbol_history', { path: 'src/start.ts', name: 'start' });
    expect(answer.data).toMatchObject({ commits: [], head: null });
  });
});
