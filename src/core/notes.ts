/**
 * Notes agents keep about a workspace, as the memory operations and the stores that hold them (SQLite on
 * one machine, PostgreSQL for a team) both see them. Types only.
 */

/** What a note may be pinned to: a file, or one declaration in it. The hash is taken when the note is written. */
export type NotePin =
  | { readonly kind: 'file'; readonly path: string; readonly hash: string }
  | {
      readonly kind: 'declaration';
      readonly path: string;
      readonly qualifiedName: string;
      readonly symbolKind: string;
      readonly hash: string;
    };

export interface Note {
  readonly key: string;
  /** Secrets already masked: the store never holds one. */
  readonly value: string;
  /** Sorted, lower-case, without repeats. */
  readonly tags: readonly string[];
  readonly author: string;
  /** ISO-8601, UTC. */
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly pin?: NotePin;
}

export interface NoteWrite {
  readonly key: string;
  readonly value: string;
  readonly tags: readonly string[];
  readonly author: string;
  readonly pin?: NotePin;
}

export interface NotePage {
  readonly notes: readonly Note[];
  /** Matching notes in all, over every page. */
  readonly total: number;
}

export interface NoteSearchHit {
  readonly note: Note;
  /**
   * Lower is better: SQLite's bm25 score, or PostgreSQL's ts_rank_cd negated. The two rank alike (a word in
   * the key counts most) but their numbers differ.
   */
  readonly score: number;
}

export interface NoteListQuery {
  readonly prefix?: string;
  readonly tag?: string;
  readonly offset: number;
  readonly limit: number;
}

export interface NoteSearchQuery {
  /** Words to look for; a note matches when it holds any of them, ranked by how well. */
  readonly words: readonly string[];
  readonly tag?: string;
  readonly offset: number;
  readonly limit: number;
}

/**
 * One workspace's notes. Every call sees what any other client wrote before it. Asynchronous, since the team
 * store answers over the network; the SQLite store answers at once.
 */
export interface NotesStore {
  /** Inserts or replaces the note under `key`; `created` says which. The creation time survives a replace. */
  put(note: NoteWrite): Promise<{ readonly note: Note; readonly created: boolean }>;
  get(key: string): Promise<Note | undefined>;
  /** Ordered by key (code point order). */
  list(query: NoteListQuery): Promise<NotePage>;
  /** Ordered by rank, then key. */
  search(
    query: NoteSearchQuery,
  ): Promise<{ readonly hits: readonly NoteSearchHit[]; readonly total: number }>;
  /** Whether a note was there to delete. */
  delete(key: string): Promise<boolean>;
  /** Keys starting with `prefix`, ordered, at most `limit` (completions). */
  keys(prefix: string, limit: number): Promise<readonly string[]>;
  /** Every pinned note, ordered by key. */
  pinned(): Promise<readonly Note[]>;
  /** Where the notes are kept, for answers and `doctor`. */
  readonly location: string;
}
