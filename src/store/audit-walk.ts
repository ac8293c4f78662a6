/**
 * The checks `audit verify` makes, free of any database: the rows in id order from the genesis hash, then
 * the stored head against the last row. The SQLite log and the PostgreSQL chains feed them their rows.
 */
import { EMPTY_HEAD, KNOWN_CHAIN_VERSIONS, rowHash, type ChainHead, type RawRow } from './audit-hash.js';

export interface VerifyOptions {
  /**
   * A head printed by an earlier verify and kept somewhere the log's writers cannot reach: the log must still
   * hold that row with that hash. It is the one check a rewrite of the whole log cannot pass.
   */
  readonly anchor?: ChainHead;
}

export type VerifyResult =
  | { readonly ok: true; readonly rows: number; readonly head: ChainHead }
  | { readonly ok: false; readonly rows: number; readonly firstBrokenRow: number; readonly reason: string };

const short = (hash: unknown): string => `${String(hash).slice(0, 12)}…`;
const rowsText = (from: number, to: number): string =>
  from === to ? `row ${from} is` : `rows ${from}–${to} are`;

/** Thrown inside the walk to stop at the first row that does not fit; row 0 means the log as a whole. */
export class Broken extends Error {
  constructor(
    readonly row: number,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * Takes the rows in id order from the genesis hash. Stops at the first row that does not fit: a gap in the
 * ids (a deleted row), a chain version this code cannot check, a previous hash that is not the hash of the
 * row before (a row deleted, inserted or edited before it), or an edited field.
 */
export class ChainWalk {
  head: ChainHead = EMPTY_HEAD;
  walked = 0;

  constructor(private readonly anchor: ChainHead | undefined) {}

  add(row: RawRow): void {
    const id = Number(row.id);
    const head = this.head;
    if (!Number.isSafeInteger(id) || id <= head.lastId) {
      // Rows come back in id order from a sound store; a damaged page can yield cells that break the order.
      const after = this.walked > 0 ? ` (after row ${head.lastId})` : '';
      throw new Broken(0, `row id ${String(row.id)} is out of order${after}: the database file is damaged`);
    }
    if (this.walked > 0 && id !== head.lastId + 1) {
      throw new Broken(id, `${rowsText(head.lastId + 1, id - 1)} missing before row ${id}`);
    }
    if (!KNOWN_CHAIN_VERSIONS.has(row.chain_version)) {
      const version = String(row.chain_version);
      throw new Broken(id, `row ${id} has chain version ${version}, which this version cannot check`);
    }
    if (row.prev_hash !== head.lastHash) {
      throw new Broken(
        id,
        `row ${id}'s previous hash does not match the row before it (a row was deleted, inserted or edited)`,
      );
    }
    if (rowHash(row) !== row.hash)
      throw new Broken(id, `row ${id} does not match its hash (the row was edited)`);
    const anchor = this.anchor;
    if (anchor && id === anchor.lastId && row.hash !== anchor.lastHash) {
      throw new Broken(
        id,
        `row ${id} is not the row of the anchor (hash ${short(anchor.lastHash)}): the log was rewritten`,
      );
    }
    this.head = { lastId: id, lastHash: String(row.hash) };
    this.walked++;
  }

  /** After the last row: the anchor must not lie beyond the end. */
  end(): void {
    const anchor = this.anchor;
    if (anchor && anchor.lastId > this.head.lastId) {
      throw new Broken(
        this.head.lastId + 1,
        `the anchor names row ${anchor.lastId} but the log ends at row ${this.head.lastId}: rows were removed since, head and all`,
      );
    }
  }
}

/** The stored head (undefined when there is none) must name exactly the last row the walk reached. */
export function checkHead(stored: RawRow | undefined, last: ChainHead): void {
  if (!stored) {
    throw new Broken(
      0,
      'the log has no head record, so rows missing at its end could not be told: it was written before heads ' +
        'were kept, or the head was removed (opening the log for writing adds one from the rows as they are)',
    );
  }
  const lastId = Number(stored.last_id);
  if (!Number.isSafeInteger(lastId) || lastId < 0) {
    throw new Broken(0, `the head record names row ${String(stored.last_id)}, which is not a row number`);
  }
  const recorded = `the head records ${lastId} ${lastId === 1 ? 'row' : 'rows'}`;
  if (lastId > last.lastId) {
    const end = last.lastId === 0 ? 'the log is empty' : `the log ends at row ${last.lastId}`;
    throw new Broken(
      last.lastId + 1,
      `${rowsText(last.lastId + 1, lastId)} missing at the end: ${recorded}, ${end}`,
    );
  }
  if (lastId < last.lastId) {
    throw new Broken(
      lastId + 1,
      `${recorded} but the log goes on to row ${last.lastId}: the head was edited or rows were added behind its back`,
    );
  }
  if (stored.last_hash !== last.lastHash) {
    const which = lastId === 0 ? 'the empty log' : `row ${lastId}`;
    throw new Broken(
      lastId,
      `the head's hash ${short(stored.last_hash)} is not ${which}'s: the head or the row was rewritten`,
    );
  }
}

/** The walk must have read every row the table holds. */
export function checkCount(rows: number, walked: number): void {
  if (rows !== walked) {
    throw new Broken(
      0,
      `the table counts ${rows} rows but ${walked} could be read: the database file is damaged`,
    );
  }
}
