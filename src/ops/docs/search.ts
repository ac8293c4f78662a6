import { z } from 'zod';
import { byteLength, cutToBytes } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import { redactionsIn } from '../../trust/secret-mask.js';
import type { DocSectionFact, IndexedFile } from '../../index/reader.js';
import type { DocsSettings, MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayOf, inScope } from '../shared/workspace-paths.js';
import { rankSections, withoutHtmlComments } from './ranking.js';

const DEFAULT_SETTINGS: DocsSettings = { paths: [], aliases: {}, stopWords: [], exactPhraseBoost: 60 };

interface Scored {
  readonly file: IndexedFile;
  readonly section: DocSectionFact;
  readonly score: number;
}

/** Lower-cased words, stop words dropped, aliases applied (`dlq` → `dead-letter-queue`). */
export function normaliseQuery(query: string, settings: DocsSettings): string[] {
  const stop = new Set(settings.stopWords.map((w) => w.toLowerCase()));
  const aliases = new Map(
    Object.entries(settings.aliases).map(([k, v]) => [k.toLowerCase(), v.toLowerCase()]),
  );
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_.-]+/u)
    .filter((w) => w.length > 0 && !stop.has(w))
    .map((w) => aliases.get(w) ?? w);
}

export const docsSearch = defineOperation({
  domain: 'docs',
  mode: 'search',
  flatName: 'search_docs',
  title: 'Search the team’s docs',
  description:
    'Finds the sections of the workspace’s Markdown docs, ADRs and RFCs that best match a question, ranked by title and text matches with configured aliases and stop words, prompt-injection text filtered — e.g. query "dead letter queue retry". DO NOT USE to find code (use code search / smart_search).',
  args: {
    query: z.string().min(1).max(512).describe('Words or a phrase, e.g. "kafka retry policy" or "dlq".'),
    max_sections: z.number().int().min(1).max(20).default(3).describe('Sections to return, e.g. 5.'),
  },
  output: z.looseObject({
    query: z.string(),
    words: z.array(z.string()),
    total_sections: z.number().int(),
    results: z.array(
      z.looseObject({
        path: z.string(),
        title: z.string(),
        start_line: z.number().int(),
        end_line: z.number().int(),
        score: z.number(),
        text: z.string(),
      }),
    ),
  }),
  capabilities: { requiresIndex: true, idempotent: true },
  subject: (args) => args.query,
  truncationHint: (args) =>
    `Sections for \`${args.query}\` were too long: lower \`max_sections\` or use more specific words.`,
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const settings = ctx.services.docs ?? DEFAULT_SETTINGS;
    const words = normaliseQuery(args.query, settings);
    // `[docs] paths` picks among the roots' Markdown; the workspace's own documents (README.md, docs/ at
    // the top, indexed outside every root) are always searched.
    const rootNames = new Set(snapshot.roots.map((r) => r.name));
    const docFiles = snapshot.files.filter(
      (f) =>
        (f.facts.sections?.length ?? 0) > 0 &&
        (settings.paths.length === 0 ||
          !rootNames.has(f.root) ||
          settings.paths.some((p) => inScope(f.absolutePath, p))),
    );
    const all = docFiles.flatMap((file) => (file.facts.sections ?? []).map((section) => ({ file, section })));
    const sectionCount = all.length;
    const scores =
      words.length > 0
        ? rankSections(
            all.map((a) => a.section),
            words,
            settings.exactPhraseBoost,
          )
        : [];
    const scored: Scored[] = all
      .map((entry, i) => ({ ...entry, score: scores[i] ?? 0 }))
      .filter((entry) => entry.score > 0);
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        (a.file.root < b.file.root ? -1 : a.file.root > b.file.root ? 1 : 0) ||
        (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0) ||
        a.section.startLine - b.section.startLine,
    );
    const top = scored.slice(0, args.max_sections);
    const perSection = Math.max(512, Math.floor(ctx.pageBudget / Math.max(1, top.length)));
    let redactions = 0;
    const rendered = top.map((hit, i) => {
      const path = displayOf(snapshot, hit.file);
      // Section text is masked when it is indexed (markdown/extract.ts), so scoring never reads a secret
      // either; the masked values shown are counted here.
      const text = withoutHtmlComments(hit.section.text).trim();
      const body =
        byteLength(text) > perSection ? `${cutToBytes(text, perSection - 40)}\n… (section continues)` : text;
      redactions += redactionsIn(body);
      return {
        markdown: `### [${i + 1}] ${hit.section.title} — \`${path}\` (L${hit.section.startLine}-L${hit.section.endLine}, score ${hit.score})\n\n${body}\n`,
        json: {
          path,
          title: hit.section.title,
          start_line: hit.section.startLine,
          end_line: hit.section.endLine,
          score: hit.score,
          text: body,
        },
      };
    });
    const header = `## Documentation search for \`${args.query}\`\n`;
    const searched = `${sectionCount} sections in ${docFiles.length} Markdown files`;
    const markdown =
      top.length === 0
        ? `${header}\nExactly 0 doc sections match \`${args.query}\` (${searched}${words.length ? `; words searched: ${words.join(', ')}` : '; every word is a stop word'}). ` +
          'Next: `code search` for declared names, or other words for the same idea.\n'
        : `${header}_${scored.length} section(s) match across ${searched}; showing the best ${top.length}._\n\n${rendered.map((r) => r.markdown).join('\n')}`;
    return {
      data: { query: args.query, words, total_sections: scored.length, results: rendered.map((r) => r.json) },
      markdown,
      filesRead: [...new Set(top.map((t) => displayOf(snapshot, t.file)))],
      redactions,
    };
  },
});
