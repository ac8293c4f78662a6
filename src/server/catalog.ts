/**
 * What the index can name, for completions and resource listings: names only, read from the installed
 * snapshot. Content always goes through the registry (masking, path jail, audit), never through here.
 */
export interface IndexCatalog {
  /** Service names: roots and the names their manifests give them. */
  services(): readonly string[];
  /** Contract names: gRPC services and methods, topics, HTTP routes. */
  contracts(): readonly string[];
  /** Workspace-relative paths of the indexed Markdown documents. */
  documents(): readonly string[];
  /** Keys of the workspace's notes (not the index's: the notes store is opened on demand). */
  noteKeys(): Promise<readonly string[]>;
  /** Branches, remote branches and tags of the repositories holding the roots, and `HEAD`. */
  revisions(): Promise<readonly string[]>;
}

export const EMPTY_CATALOG: IndexCatalog = {
  services: () => [],
  contracts: () => [],
  documents: () => [],
  noteKeys: () => Promise.resolve([]),
  revisions: () => Promise.resolve([]),
};

/** Keys completed at most: enough to narrow down by typing, never the whole store of a busy team. */
const COMPLETED_KEYS = 10_000;

/** The note keys of a store opened on demand, for the catalog. */
export const noteKeysOf =
  (open: (() => Promise<{ keys(prefix: string, limit: number): Promise<readonly string[]> }>) | undefined) =>
  async (): Promise<readonly string[]> => (open ? await (await open()).keys('', COMPLETED_KEYS) : []);

/** The values of a catalog list that start with (else contain) what was typed, case-insensitively. */
export function matching(
  values: readonly string[],
  typed: string,
  max = 100,
): { values: string[]; total: number } {
  const needle = typed.toLowerCase();
  const starts = values.filter((v) => v.toLowerCase().startsWith(needle));
  const contains = values.filter(
    (v) => !v.toLowerCase().startsWith(needle) && v.toLowerCase().includes(needle),
  );
  const all = [...new Set([...starts, ...contains])];
  return { values: all.slice(0, max), total: all.length };
}
