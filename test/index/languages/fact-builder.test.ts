import { describe, expect, test } from 'vitest';
import type { ContractFact, SymbolFact } from '../../../src/index/facts.js';
import { FactBuilder, innermostSymbolAt } from '../../../src/index/languages/shared/fact-builder.js';

const saga = (name: string, line: number): ContractFact => ({ kind: 'saga', name, line, via: 'test' });

describe('FactBuilder', () => {
  test('symbols get their index as id, without undefined fields, and stay editable', () => {
    const facts = new FactBuilder('go');
    const outer = facts.addSymbol({
      kind: 'struct',
      name: 'S',
      qualifiedName: 'S',
      startLine: 1,
      endLine: 9,
    });
    const inner = facts.addSymbol({
      kind: 'method',
      name: 'M',
      qualifiedName: 'S.M',
      startLine: 3,
      endLine: 5,
      docstring: undefined,
    });
    const method = facts.symbol(inner);
    if (method !== undefined) method.parent = outer;
    expect(facts.build().symbols).toEqual([
      { id: 0, kind: 'struct', name: 'S', qualifiedName: 'S', startLine: 1, endLine: 9 },
      { id: 1, kind: 'method', name: 'M', qualifiedName: 'S.M', startLine: 3, endLine: 5, parent: 0 },
    ]);
    expect(Object.keys(facts.build().symbols[1] ?? {})).not.toContain('docstring');
  });

  test('contracts: by line, then offset (none means the line start), then the order found', () => {
    const facts = new FactBuilder('java');
    facts.addContract(saga('late', 7));
    facts.addContract(saga('call', 3), { at: 40 });
    facts.addContract(saga('construction', 3), { at: 20 });
    facts.addContract(saga('line-only-1', 3));
    facts.addContract(saga('line-only-2', 3));
    expect(facts.build().contracts.map((c) => (c.kind === 'saga' ? c.name : ''))).toEqual([
      'line-only-1',
      'line-only-2',
      'construction',
      'call',
      'late',
    ]);
  });

  test('an owner becomes the fact’s symbol; extras appear only when given', () => {
    const facts = new FactBuilder('python');
    facts.addContract(saga('x', 1), { owner: 4 });
    const built = facts.build({ package: undefined, properties: [] });
    expect(built.contracts).toEqual([{ kind: 'saga', name: 'x', line: 1, via: 'test', symbol: 4 }]);
    expect(Object.keys(built)).toEqual(['language', 'symbols', 'imports', 'contracts', 'properties']);
  });
});

describe('innermostSymbolAt', () => {
  const symbol = (id: number, startLine: number, endLine: number): SymbolFact => ({
    id,
    kind: 'function',
    name: `f${id}`,
    qualifiedName: `f${id}`,
    startLine,
    endLine,
  });

  test('the smallest span containing the line wins, the later one on a tie', () => {
    const symbols = [symbol(0, 1, 20), symbol(1, 2, 10), symbol(2, 4, 6), symbol(3, 5, 7)];
    expect(innermostSymbolAt(symbols, 3)).toBe(1);
    expect(innermostSymbolAt(symbols, 5)).toBe(3);
    expect(innermostSymbolAt(symbols, 15)).toBe(0);
    expect(innermostSymbolAt(symbols, 30)).toBeUndefined();
  });
});
