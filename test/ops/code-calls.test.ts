/**
 * `code definition`, `references`, `callers`, `callees` and `implementations` over the code-calls fixture
 * (a TypeScript service and a Go service, facts as the extractors record them), through a real SDK client:
 * exact rows, paging, confidence filters, cycles, dispatch through interfaces and Go method sets, masking,
 * and the errors that name what to pass.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeCallsClient } from './code-calls-fixture.js';

let client: Client;
let close: () => Promise<void>;

// Indexing the fixture takes a second on a quiet machine; a busy one gets more time.
beforeAll(async () => {
  ({ client, close } = await codeCallsClient());
}, 180_000);
afterAll(async () => {
  await close();
});

interface Answer {
  readonly text: string;
  readonly json: Record<string, unknown>;
  readonly isError: boolean;
}

async function ask(tool: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await client.callTool({ name: tool, arguments: args });
  const content = result.content as { type: string; text: string }[];
  return {
    text: content[0]?.text ?? '',
    json: (result.structuredContent ?? {}) as Record<string, unknown>,
    isError: result.isError === true,
  };
}

/** The table rows of an answer, without the row number. */
const rows = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => /^\| \d+ \|/.test(line))
    .map((line) => line.replace(/^\| \d+ \| /, '| '));

describe('find_callers', () => {
  it('walks callers transitively, through a Go interface to the struct method it dispatches to', async () => {
    const { text, json } = await ask('find_callers', {
      symbol: 'inventory/store/mem.go:memStore.Get',
      depth: 2,
    });
    expect(text).toContain('## Callers of method `memStore.Get` (`inventory/store/mem.go:3`, inventory)');
    expect(rows(text)).toEqual([
      '| 1 | `memStore.Put` | `memStore.Get` | inventory | `inventory/store/mem.go:8` | exact | self |',
      '| 1 | `reserve` | `Store.Get` | inventory | `inventory/main.go:11` | heuristic | interface |',
      '| 2 | `reserve` | `Store.Put` | inventory | `inventory/main.go:12` | heuristic | interface |',
      '| 2 | `main` | `reserve` | inventory | `inventory/main.go:7` | exact | file |',
    ]);
    expect(json.total_rows).toBe(4);
    expect(json.next_offset).toBeNull();
    expect((json.rows as unknown[])[1]).toEqual({
      hop: 1,
      caller: 'reserve',
      callee: 'Store.Get',
      callee_symbol: 'inventory/store/store.go:Store.Get',
      path: 'inventory/main.go',
      line: 11,
      service: 'inventory',
      confidence: 'heuristic',
      via: 'interface',
    });
  });

  it('ends at cycles: recursion through write and audit is listed once per edge', async () => {
    const { text } = await ask('find_callers', { symbol: 'orders/src/audit.ts:audit', depth: 5 });
    expect(rows(text)).toEqual([
      '| 1 | `write` | `audit` | orders | `orders/src/audit.ts:6` | exact | file |',
      '| 1 | `OrderService.place` | `audit` | orders | `orders/src/service.ts:11` | exact | import |',
      '| 1 | `OrderService.validate` | `audit` | orders | `orders/src/service.ts:15` | exact | import |',
      '| 2 | `audit` | `write` | orders | `orders/src/audit.ts:2` | exact | file |',
      '| 2 | `main` | `OrderService.place` | orders | `orders/src/service.ts:21` | exact | type |',
      '| 2 | `OrderService.place` | `OrderService.validate` | orders | `orders/src/service.ts:9` | exact | self |',
    ]);
  });

  it('a call through the interface counts for each implementation, and min_confidence "exact" leaves it out', async () => {
    const heuristic = await ask('find_callers', { symbol: 'orders/src/repo.ts:PgRepo.save' });
    expect(rows(heuristic.text)).toEqual([
      '| 1 | `OrderService.place` | `OrderRepo.save` | orders | `orders/src/service.ts:10` | heuristic | interface |',
    ]);
    const exact = await ask('find_callers', {
      symbol: 'orders/src/repo.ts:PgRepo.save',
      min_confidence: 'exact',
    });
    expect(rows(exact.text)).toEqual([]);
    expect(exact.json.below_confidence).toBe(1);
    expect(exact.text).toContain(
      '1 edge(s) weaker than `exact` left out; `min_confidence: "heuristic" or "ambiguous"` lists them.',
    );
  });

  it('pages with offset and next_offset', async () => {
    const first = await ask('find_callers', { symbol: 'orders/src/audit.ts:audit', depth: 5, limit: 4 });
    expect(first.json.next_offset).toBe(4);
    expect(first.text).toContain('Showing 1–4 of 6 rows. More: `offset: 4`.');
    const last = await ask('find_callers', {
      symbol: 'orders/src/audit.ts:audit',
      depth: 5,
      limit: 4,
      offset: 4,
    });
    expect(last.json.next_offset).toBeNull();
    expect(rows(last.text)).toEqual([
      '| 2 | `main` | `OrderService.place` | orders | `orders/src/service.ts:21` | exact | type |',
      '| 2 | `OrderService.place` | `OrderService.validate` | orders | `orders/src/service.ts:9` | exact | self |',
    ]);
  });

  it('a name alone: the one declaration, or the candidates to pass back as symbol', async () => {
    const one = await ask('find_callers', { name: 'reserve' });
    expect(rows(one.text)).toEqual([
      '| 1 | `main` | `reserve` | inventory | `inventory/main.go:7` | exact | file |',
    ]);
    const several = await ask('find_callers', { name: 'save' });
    expect(several.isError).toBe(true);
    expect(several.text).toBe(
      '`save` names 3 declarations: `orders/src/repo.ts:OrderRepo.save` (method, L6), `orders/src/repo.ts:PgRepo.save` (method, L10), `orders/src/repo.ts:MemRepo.save` (method, L17). Pass one of them as `symbol`.',
    );
  });

  it('unknown files and names are errors that suggest what exists', async () => {
    const path = await ask('find_callers', { symbol: 'orders/src/servce.ts:main' });
    expect(path.isError).toBe(true);
    expect(path.text).toContain('Closest indexed paths: `orders/src/service.ts`.');
    const name = await ask('find_callers', { name: 'Mem' });
    expect(name.isError).toBe(true);
    expect(name.text).toBe(
      'No declaration named `Mem` in the indexed roots. Closest: `MemRepo`, `memStore`. `code search` finds declarations by part of their name.',
    );
  });

  it('a declaration in a language that records no call sites: says so instead of a bare zero', async () => {
    const { text, json } = await ask('find_callers', { symbol: 'orders/proto/orders.proto:Orders' });
    expect(rows(text)).toEqual([]);
    expect(json).toMatchObject({ total_rows: 0, calls_recorded: false, next_offset: null });
    expect(text).toContain(
      'No file in the language of `orders/proto/orders.proto` records call sites, so the call graph cannot list callers; `code references` scans the text for the name.',
    );
  });
});

describe('find_callees', () => {
  it('walks what a function calls, constructors and imports included, implementations of an interface call as `interface` rows, library calls left out', async () => {
    const { text, json } = await ask('find_callees', { symbol: 'orders/src/service.ts:main', depth: 3 });
    expect(rows(text)).toEqual([
      '| 1 | `main` | `OrderService` | orders | `orders/src/service.ts:20` | exact | constructor |',
      '| 1 | `main` | `PgRepo` | orders | `orders/src/service.ts:20` | exact | import |',
      '| 1 | `main` | `OrderService.place` | orders | `orders/src/service.ts:21` | exact | type |',
      '| 2 | `OrderService.place` | `OrderService.validate` | orders | `orders/src/service.ts:9` | exact | self |',
      '| 2 | `OrderService.place` | `OrderRepo.save` | orders | `orders/src/service.ts:10` | exact | type |',
      '| 2 | `OrderService.place` | `PgRepo.save` | orders | `orders/src/service.ts:10` | heuristic | interface |',
      '| 2 | `OrderService.place` | `MemRepo.save` | orders | `orders/src/service.ts:10` | heuristic | interface |',
      '| 2 | `OrderService.place` | `audit` | orders | `orders/src/service.ts:11` | exact | import |',
      '| 3 | `OrderService.validate` | `audit` | orders | `orders/src/service.ts:15` | exact | import |',
      '| 3 | `audit` | `write` | orders | `orders/src/audit.ts:2` | exact | file |',
    ]);
    expect(json.declaration).toMatchObject({
      symbol: 'orders/src/service.ts:main',
      kind: 'function',
      line: 19,
    });
  });

  it('a Go method: its own type and the package', async () => {
    const { text } = await ask('find_callees', { path: 'inventory/store/mem.go', name: 'Put' });
    expect(rows(text)).toEqual([
      '| 1 | `memStore.Put` | `memStore.Get` | inventory | `inventory/store/mem.go:8` | exact | self |',
      '| 1 | `memStore.Put` | `clamp` | inventory | `inventory/store/mem.go:8` | exact | file |',
    ]);
  });
});

describe('find_definition', () => {
  const definitions = async (args: Record<string, unknown>) =>
    rows((await ask('find_definition', args)).text);

  it('without a column: the calls the graph binds on the line', async () => {
    expect(await definitions({ path: 'orders/src/service.ts', line: 10 })).toEqual([
      '| `OrderRepo.save` | method | orders | `orders/src/repo.ts:6` | `save(order: Order): void` | exact | type (call) |',
    ]);
    expect(await definitions({ path: 'inventory/main.go', line: 6 })).toEqual([
      '| `New` | function | inventory | `inventory/store/store.go:14` | `func New() Store` | exact | import (call) |',
    ]);
  });

  it('without a column on a declaration line: the declaration itself', async () => {
    expect(await definitions({ path: 'orders/src/service.ts', line: 14 })).toEqual([
      '| `OrderService.validate` | method | orders | `orders/src/service.ts:14` | `validate(order: Order): void` | exact | declaration |',
    ]);
  });

  it('a name that is no call: through the imports, a TypeScript named import and a Go package', async () => {
    expect(await definitions({ path: 'orders/src/service.ts', line: 6, column: 40 })).toEqual([
      '| `OrderRepo` | interface | orders | `orders/src/repo.ts:5` | `interface OrderRepo` | exact | import |',
    ]);
    expect(await definitions({ path: 'inventory/main.go', line: 10, column: 22 })).toEqual([
      '| `Store` | interface | inventory | `inventory/store/store.go:4` | `type Store interface` | exact | import |',
    ]);
  });

  it('a member of a value of unknown type: the one method of that name in reach, else the few', async () => {
    expect(await definitions({ path: 'orders/src/service.ts', line: 25, column: 18 })).toEqual([
      '| `OrderService.validate` | method | orders | `orders/src/service.ts:14` | `validate(order: Order): void` | heuristic | name |',
    ]);
    expect(await definitions({ path: 'orders/src/service.ts', line: 28, column: 49 })).toEqual([
      '| `OrderRepo.save` | method | orders | `orders/src/repo.ts:6` | `save(order: Order): void` | ambiguous | name |',
      '| `PgRepo.save` | method | orders | `orders/src/repo.ts:10` | `save(order: Order): void` | ambiguous | name |',
      '| `MemRepo.save` | method | orders | `orders/src/repo.ts:17` | `save(order: Order): void` | ambiguous | name |',
    ]);
  });

  it('a library import: no declaration, and where it comes from', async () => {
    const { text, json } = await ask('find_definition', {
      path: 'orders/src/service.ts',
      line: 21,
      column: 25,
    });
    expect(rows(text)).toEqual([]);
    expect(text).toContain('`randomUUID` comes from `node:crypto`, outside the indexed roots.');
    expect(json).toMatchObject({
      names: ['randomUUID'],
      total: 0,
      external: 'node:crypto',
      next_offset: null,
    });
  });

  it('a library call without a column: named as unbound', async () => {
    const { json } = await ask('find_definition', { path: 'orders/src/repo.ts', line: 18 });
    expect(json).toMatchObject({ names: ['push'], total: 0, unbound_calls: ['push'] });
  });

  it('masks the line and the signature it shows', async () => {
    const { text, json } = await ask('find_definition', {
      path: 'orders/src/audit.ts',
      line: 10,
      column: 15,
    });
    expect(text).not.toContain('7Hq2xT9');
    expect(json.text).toBe("export const password = '[REDACTED_SECRET]';");
  });

  it('a column on no name, or a line past the end: errors that say what is there', async () => {
    const blank = await ask('find_definition', { path: 'orders/src/service.ts', line: 15, column: 3 });
    expect(blank.isError).toBe(true);
    expect(blank.text).toBe(
      'No name at column 3 of `orders/src/service.ts:15`. Names on the line: `if` (column 5), `order` (column 10), `id` (column 16), `audit` (column 20), `invalid` (column 27).',
    );
    const past = await ask('find_definition', { path: 'orders/src/service.ts', line: 99 });
    expect(past.text).toBe('`orders/src/service.ts` has 29 line(s); `line` 99 is past its end.');
  });
});

describe('find_references', () => {
  it('every whole-word use, resolved where the declaration, an import or a call binds it', async () => {
    const { text, json } = await ask('find_references', { symbol: 'orders/src/audit.ts:audit' });
    expect(rows(text)).toEqual([
      '| `orders/src/audit.ts:1:17` | `export function audit(message: string): void {` | yes | the declaration |',
      '| `orders/src/audit.ts:6:28` | `if (message.length > 80) audit(message.slice(0, 80));` | yes | call, exact file |',
      "| `orders/src/service.ts:3:10` | `import { audit } from './audit';` | yes | import of it |",
      "| `orders/src/service.ts:3:26` | `import { audit } from './audit';` | no | inside a string |",
      "| `orders/src/service.ts:11:5` | `audit('placed');` | yes | call, exact import |",
      "| `orders/src/service.ts:15:20` | `if (!order.id) audit('invalid');` | yes | call, exact import |",
    ]);
    // The masked secret on line 10 holds the word too: it is never seen.
    expect(text).not.toContain('7Hq2xT9');
    expect(json).toMatchObject({ total: 6, resolved_total: 5, files_scanned: 3, total_is_partial: false });
  });

  it('a method: namesakes declared beside it, and a call bound to the interface it implements', async () => {
    const { text, json } = await ask('find_references', { symbol: 'orders/src/repo.ts:PgRepo.save' });
    expect(rows(text)).toEqual([
      '| `orders/src/repo.ts:6:3` | `save(order: Order): void;` | no | declares a namesake (method) |',
      '| `orders/src/repo.ts:10:3` | `save(order: Order): void {` | yes | the declaration |',
      '| `orders/src/repo.ts:17:3` | `save(order: Order): void {` | no | declares a namesake (method) |',
      '| `orders/src/service.ts:10:15` | `this.repo.save(order);` | no | call bound to `orders/src/repo.ts:OrderRepo.save` (exact type), which this implements |',
      '| `orders/src/service.ts:28:49` | `export const saveOf = (repo: OrderRepo) => repo.save;` | no | not bound |',
    ]);
    expect((json.references as unknown[])[3]).toEqual({
      path: 'orders/src/service.ts',
      line: 10,
      column: 15,
      text: 'this.repo.save(order);',
      resolved: false,
      via: 'type',
      dispatches: true,
      bound_to: 'orders/src/repo.ts:OrderRepo.save',
    });
  });

  it('Go: only files of its language are scanned, a package-qualified call is bound', async () => {
    const { text, json } = await ask('find_references', { symbol: 'inventory/store/store.go:New' });
    // The declaring file first; a comment naming it is a use nothing binds.
    expect(rows(text)).toEqual([
      '| `inventory/store/store.go:13:4` | `// New returns an empty in-memory store.` | no | not bound |',
      '| `inventory/store/store.go:14:6` | `func New() Store {` | yes | the declaration |',
      '| `inventory/main.go:6:13` | `s := store.New()` | yes | call, exact import |',
    ]);
    expect(json.files_scanned).toBe(3);
  });
});

describe('find_implementations', () => {
  it('declared implementations of a TypeScript interface', async () => {
    const { text } = await ask('find_implementations', { name: 'OrderRepo' });
    expect(rows(text)).toEqual([
      '| `PgRepo` | class | orders | `orders/src/repo.ts:9` | direct | exact | declared |',
      '| `MemRepo` | class | orders | `orders/src/repo.ts:15` | direct | exact | declared |',
    ]);
  });

  it('Go structural satisfaction, heuristic', async () => {
    const { text, json } = await ask('find_implementations', { symbol: 'inventory/store/store.go:Store' });
    expect(rows(text)).toEqual([
      '| `memStore` | struct | inventory | `inventory/store/store.go:9` | direct | heuristic | method set |',
    ]);
    expect(json.next_offset).toBeNull();
  });

  it('a function is no type: the error says what to ask instead', async () => {
    const { text, isError } = await ask('find_implementations', { symbol: 'orders/src/audit.ts:audit' });
    expect(isError).toBe(true);
    expect(text).toBe(
      '`orders/src/audit.ts:audit` is a function; implementations are listed for an interface, trait, class or struct. `code references` lists its uses.',
    );
  });
});
