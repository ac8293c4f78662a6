/** What both notes stores read back for a note: the same columns, and the pin they describe. */
import type { NotePin } from '../core/notes.js';

/** The columns of a note, as `n.…` of the notes table; both stores select exactly these. */
export const NOTE_COLUMNS =
  'n.key, n.value, n.tags, n.author, n.created_at, n.updated_at, n.pin_kind, n.pin_path, n.pin_name, n.pin_symbol_kind, n.pin_hash';

export interface PinColumns {
  pin_kind: string | null;
  pin_path: string | null;
  pin_name: string | null;
  pin_symbol_kind: string | null;
  pin_hash: string | null;
}

/** The pin a row holds; a row whose pin columns are incomplete has none. */
export function pinOf(row: PinColumns): NotePin | undefined {
  if (row.pin_kind === 'file' && row.pin_path && row.pin_hash)
    return { kind: 'file', path: row.pin_path, hash: row.pin_hash };
  if (row.pin_kind === 'declaration' && row.pin_path && row.pin_name && row.pin_symbol_kind && row.pin_hash)
    return {
      kind: 'declaration',
      path: row.pin_path,
      qualifiedName: row.pin_name,
      symbolKind: row.pin_symbol_kind,
      hash: row.pin_hash,
    };
  return undefined;
}
