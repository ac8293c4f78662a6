import { z } from 'zod';
import { pageFooter, takePage } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { Note, NotePin } from '../../core/notes.js';
import type { MeshServices } from '../services.js';
import { pageArgs } from '../code/page-args.js';
import { pageFields } from '../shared/output-shapes.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { memoisedTexts, pinState } from './note-pin.js';
import { noteShape, noteJson, pinText } from './note-render.js';
import { notesOf } from './notes-service.js';

export const AUDIT_LIMITS = { default: 50, max: 500 } as const;

interface Finding {
  readonly note: Note & { readonly pin: NotePin };
  readonly status: 'changed' | 'vanished';
  readonly detail: string;
  readonly hash: string | null;
}

function findingMarkdown(finding: Finding): string {
  const { note } = finding;
  const what = pinText(note.pin);
  const line =
    finding.status === 'changed'
      ? `**changed**: ${what} is not what it was when the note was written (${note.updatedAt}).`
      : `**vanished**: ${what}: ${finding.detail}.`;
  return `- \`${note.key}\` — ${line}\n`;
}

export const memoryAudit = defineOperation({
  domain: 'memory',
  mode: 'audit',
  flatName: 'audit_notes',
  title: 'Audit pinned notes',
  description:
    'Checks every note pinned to a file or declaration against the current index and reports those whose pinned code changed since the note was written (its hash differs) or vanished (file gone, declaration renamed or removed); it changes no note — e.g. after a refactor, before trusting old notes. DO NOT USE to read notes (use memory get, list or search).',
  args: {
    prefix: z
      .string()
      .min(1)
      .optional()
      .describe('Only notes whose key starts with this text, e.g. "deploy/".'),
    ...pageArgs('Findings', AUDIT_LIMITS),
  },
  output: z.looseObject({
    generation: z.number().int().describe('The snapshot generation the pins were checked against.'),
    checked: z.number().int().describe('Pinned notes checked.'),
    unchanged: z.number().int(),
    changed: z.number().int(),
    vanished: z.number().int(),
    ...pageFields,
    findings: z.array(
      z.looseObject({
        status: z.string().describe('changed or vanished.'),
        detail: z.string(),
        current_hash: z.string().nullable().describe("The pinned content's hash now; null when it vanished."),
        note: noteShape,
      }),
    ),
  }),
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.prefix,
  async run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const store = await notesOf(ctx);
    const pinned = (await store.pinned())
      .filter((note): note is Note & { pin: NotePin } => note.pin !== undefined)
      .filter((note) => args.prefix === undefined || note.key.startsWith(args.prefix));
    const findings: Finding[] = [];
    const texts = memoisedTexts();
    for (const note of pinned) {
      const state = pinState(snapshot, note.pin, texts);
      if (state.state === 'changed')
        findings.push({
          note,
          status: 'changed',
          detail: "the pinned content's hash differs",
          hash: state.hash,
        });
      else if (state.state === 'vanished')
        findings.push({ note, status: 'vanished', detail: state.reason, hash: null });
    }
    const changed = findings.filter((f) => f.status === 'changed').length;
    const vanished = findings.length - changed;
    const page = takePage(findings, {
      offset: args.offset,
      limit: args.limit,
      budgetBytes: ctx.pageBudget,
      render: findingMarkdown,
    });
    const head =
      pinned.length === 0
        ? 'No pinned notes to audit (memory put with `path`, and `name` for a declaration, pins a note).'
        : `Checked ${pinned.length} pinned note(s) against snapshot generation ${snapshot.generation}: ` +
          `${pinned.length - findings.length} unchanged, ${changed} changed, ${vanished} vanished.` +
          (findings.length > 0
            ? ' Read each one and rewrite it (memory put) or delete it (memory delete).'
            : '');
    const footer = pageFooter(page, 'findings', args.limit);
    return {
      data: {
        generation: snapshot.generation,
        checked: pinned.length,
        unchanged: pinned.length - findings.length,
        changed,
        vanished,
        offset: page.start,
        next_offset: page.hasMore ? page.end : null,
        findings: page.items.map((f) => ({
          status: f.status,
          detail: f.detail,
          current_hash: f.hash,
          note: noteJson(f.note),
        })),
      },
      markdown: `${head}\n${page.rendered.length > 0 ? `\n${page.rendered.join('')}` : ''}${footer ? `\n---\n${footer}\n` : ''}`,
    };
  },
});
