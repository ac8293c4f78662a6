import { describe, expect, test } from 'vitest';
import { emptyFacts, type ContractFact } from '../../src/index/facts.js';
import type { Derivation } from '../../src/index/reader.js';
import type { IndexedFile, Snapshot } from '../../src/index/snapshot.js';
import { SnapshotHolder } from '../../src/index/snapshot-holder.js';

function file(root: string, path: string, contracts: ContractFact[] = []): IndexedFile {
  return {
    root,
    path,
    absolutePath: `/ws/${root}/${path}`,
    language: 'typescript',
    size: 1,
    mtimeMs: 1,
    hash: `${root}/${path}`,
    outcome: 'parsed',
    facts: { ...emptyFacts('typescript'), contracts },
  };
}

const producer = (topic: string): ContractFact => ({
  kind: 'topic_producer',
  topic,
  line: 3,
  confidence: 'exact',
  via: 'test',
});

function snapshotOf(files: IndexedFile[], generation = 1): Snapshot {
  return {
    generation,
    createdAt: '2025-01-01T00:00:00.000Z',
    workspace: 'ws',
    roots: [
      { name: 'a', path: '/ws/a' },
      { name: 'b', path: '/ws/b' },
    ],
    files,
    rejected: [],
    services: new Map([['a', 'alpha']]),
  };
}

/** Counts builds and patches; the structure is the list of paths it has seen. */
function countingDerivation(): { derivation: Derivation<string[]>; builds: number; patches: number } {
  const counts = { builds: 0, patches: 0 };
  const derivation: Derivation<string[]> = {
    build(snapshot) {
      counts.builds++;
      return snapshot.files.map((f) => f.path);
    },
    patch(previous, removed, added) {
      counts.patches++;
      const gone = new Set(removed.map((f) => f.path));
      return [...previous.filter((p) => !gone.has(p)), ...added.map((f) => f.path)];
    },
  };
  return Object.assign(counts, { derivation });
}

describe('SnapshotHolder', () => {
  test('reconciles only when contractGraph() is called, once per snapshot', () => {
    const holder = new SnapshotHolder(snapshotOf([file('a', 'p.ts', [producer('orders')])]), {});
    expect(holder.hasContractGraph()).toBe(false);
    const graph = holder.contractGraph();
    expect(holder.hasContractGraph()).toBe(true);
    expect(holder.contractGraph()).toBe(graph);
    expect(graph.nodesOfKind('topic').map((n) => n.name)).toEqual(['orders']);
  });

  test('finds files by root and path, by node or edge, and by absolute path; names a root’s service', () => {
    const one = file('a', 'x/one.ts', [producer('orders')]);
    const two = file('b', 'x/one.ts');
    const holder = new SnapshotHolder(snapshotOf([one, two]), {});
    expect(holder.file('a', 'x/one.ts')).toBe(one);
    expect(holder.file('b', 'x/one.ts')).toBe(two);
    expect(holder.file('a', 'missing.ts')).toBeUndefined();
    expect(holder.fileAt('/ws/b/x/one.ts')).toBe(two);
    const edge = holder.contractGraph().edges[0];
    expect(edge && holder.fileOf(edge)).toBe(one);
    expect(holder.fileOf({ root: undefined, file: 'x/one.ts' })).toBeUndefined();
    expect(holder.serviceOf('a')).toBe('alpha');
    expect(holder.serviceOf('b')).toBe('b');
  });

  test('builds a derivation once; a patched successor takes it over instead of rebuilding', () => {
    const kept = file('a', 'kept.ts');
    const old = file('a', 'old.ts');
    const added = file('a', 'new.ts');
    const first = new SnapshotHolder(snapshotOf([kept, old]), {});
    const counts = countingDerivation();
    const built = first.derived(counts.derivation);
    expect(first.derived(counts.derivation)).toBe(built);
    expect(counts.builds).toBe(1);

    const patch = { removed: [old], added: [added] };
    const second = new SnapshotHolder(snapshotOf([kept, added], 2), {}, first.lineageFor(patch));
    first.releaseLineage();
    expect(second.derived(counts.derivation)).toEqual(['kept.ts', 'new.ts']);
    expect(counts).toMatchObject({ builds: 1, patches: 1 });
    // Handed over, not shared: the earlier snapshot builds its own again if asked.
    expect(first.derived(counts.derivation)).toEqual(['kept.ts', 'old.ts']);
    expect(counts.builds).toBe(2);
  });

  test('reloads with no query in between extend the lineage, so the next query still patches', () => {
    const a = file('a', 'a.ts');
    const b = file('a', 'b.ts');
    const c = file('a', 'c.ts');
    const first = new SnapshotHolder(snapshotOf([a]), {});
    const counts = countingDerivation();
    first.derived(counts.derivation);
    const second = new SnapshotHolder(
      snapshotOf([a, b], 2),
      {},
      first.lineageFor({ removed: [], added: [b] }),
    );
    first.releaseLineage();
    // `b` comes and goes again before anyone asks: it never reaches the structure.
    const third = new SnapshotHolder(
      snapshotOf([a, c], 3),
      {},
      second.lineageFor({ removed: [b], added: [c] }),
    );
    second.releaseLineage();
    expect(third.derived(counts.derivation)).toEqual(['a.ts', 'c.ts']);
    expect(counts).toMatchObject({ builds: 1, patches: 1 });
  });
});
