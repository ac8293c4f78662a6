import { describe, expect, test } from 'vitest';
import { emptyFacts, type SymbolFact } from '../../src/index/facts.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { SymbolIndex, type MatchTier } from '../../src/ops/code/symbol-index.js';
import { indexedRegistry } from '../helpers/workspace.js';

/** What `find` must answer, computed the slow, obvious way. */
function reference(files: readonly IndexedFile[], query: string): string[] {
  const needle = query.toLowerCase();
  const rows: string[] = [];
  for (const file of files) {
    file.facts.symbols.forEach((symbol, index) => {
      if (symbol.kind === 'heading') return;
      const name = symbol.name.toLowerCase();
      const at = name.indexOf(needle);
      if (at === -1) return;
      const tier: MatchTier = name === needle ? 0 : at === 0 ? 1 : 2;
      rows.push(`${file.path}#${index} ${tier}`);
    });
  }
  return rows.sort();
}

const answer = (index: SymbolIndex, query: string) =>
  index
    .find(query)
    .map(({ ref, tier }) => `${ref.file.path}#${ref.symbol} ${tier}`)
    .sort();

function fileDeclaring(path: string, names: string[]): IndexedFile {
  const symbols: SymbolFact[] = names.map((name, id) => ({
    id,
    kind: 'function',
    name,
    qualifiedName: name,
    startLine: id + 1,
    endLine: id + 1,
  }));
  return {
    root: 'x',
    path,
    absolutePath: `/x/${path}`,
    language: 'typescript',
    size: 1,
    mtimeMs: 1,
    hash: path,
    outcome: 'parsed',
    facts: { ...emptyFacts('typescript'), symbols },
  };
}

describe('SymbolIndex', () => {
  test('answers every query exactly like a scan of all names, short and long, before and after patches', async () => {
    const { engine } = await indexedRegistry();
    try {
      const files = [...(engine.snapshot()?.files ?? [])];
      const unicode = fileDeclaring('unicode.ts', ['naïveΩmega', 'Café', 'ÜBER_Straße', 'aaaa', 'xAaAx']);
      const all = [...files, unicode];
      const index = new SymbolIndex(all);
      const names = all.flatMap((f) => f.facts.symbols.map((s) => s.name));
      const queries = new Set([
        'o',
        'Or',
        'ord',
        'ORDER',
        'zzz',
        'ΩME',
        'straSSe',
        'aaa',
        'aaaa',
        'aaaaa',
        'é',
      ]);
      names.forEach((name, i) => {
        if (i % 7 !== 0) return;
        for (const length of [3, 4, 6]) queries.add(name.slice(i % 3, (i % 3) + length));
        queries.add(name);
      });
      expect(queries.size).toBeGreaterThan(150);
      for (const query of queries) expect(answer(index, query), query).toEqual(reference(all, query));

      // Patched: one file replaced by a version with new and removed names, one file added.
      const replacement = fileDeclaring('unicode.ts', ['naïveΩmega2', 'brandNewOrderThing']);
      const added = fileDeclaring('added.ts', ['OrderZeta', 'zzzTop']);
      index.patch([unicode], [replacement, added]);
      const patched = [...files, replacement, added];
      for (const query of [...queries, 'brandnew', 'zzz', 'ordert', 'zeta']) {
        expect(answer(index, query), query).toEqual(reference(patched, query));
      }
    } finally {
      await engine.close();
    }
  });
});
