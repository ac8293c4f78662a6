/** A note as answers show it: the JSON shape every memory mode shares, and its Markdown. */
import { z } from 'zod';
import type { Note, NotePin } from '../../core/notes.js';

export const pinShape = z.looseObject({
  kind: z.string().describe('file or declaration.'),
  path: z.string().describe('Workspace-relative path of the pinned file.'),
  name: z.string().optional().describe('Qualified name of the pinned declaration.'),
  symbol_kind: z.string().optional().describe('Kind of the pinned declaration (class, method, ...).'),
  hash: z.string().describe('SHA-256 of the pinned content when the note was written.'),
});

export const noteShape = z.looseObject({
  key: z.string(),
  value: z.string().describe('The note, secrets masked.'),
  tags: z.array(z.string()),
  author: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  pin: pinShape.nullable(),
});

export function pinJson(pin: NotePin): z.infer<typeof pinShape> {
  return pin.kind === 'file'
    ? { kind: pin.kind, path: pin.path, hash: pin.hash }
    : {
        kind: pin.kind,
        path: pin.path,
        name: pin.qualifiedName,
        symbol_kind: pin.symbolKind,
        hash: pin.hash,
      };
}

export function noteJson(note: Note): z.infer<typeof noteShape> {
  return {
    key: note.key,
    value: note.value,
    tags: [...note.tags],
    author: note.author,
    created_at: note.createdAt,
    updated_at: note.updatedAt,
    pin: note.pin ? pinJson(note.pin) : null,
  };
}

export function pinText(pin: NotePin): string {
  return pin.kind === 'file'
    ? `file \`${pin.path}\``
    : `${pin.symbolKind} \`${pin.qualifiedName}\` in \`${pin.path}\``;
}

/** A heading, one line of facts, then the value as written. */
export function noteMarkdown(note: Note): string {
  const facts = [
    note.tags.length > 0 ? `tags: ${note.tags.join(', ')}` : 'no tags',
    `by ${note.author}`,
    note.createdAt === note.updatedAt
      ? `written ${note.createdAt}`
      : `updated ${note.updatedAt} (created ${note.createdAt})`,
    ...(note.pin ? [`pinned to ${pinText(note.pin)}`] : []),
  ];
  return `### \`${note.key}\`\n${facts.join(' · ')}\n\n${note.value}\n`;
}
