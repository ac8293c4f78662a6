import type { IndexReader, LanguageId, LanguageSpec, SymbolFact } from '../index/reader.js';

/** Docs search vocabulary from `[docs]` in the config. */
export interface DocsSettings {
  /** Folders or files (absolute) whose Markdown counts as docs; empty: every Markdown file. */
  readonly paths: readonly string[];
  readonly aliases: Readonly<Record<string, string>>;
  readonly stopWords: readonly string[];
  readonly exactPhraseBoost: number;
}

/** One version of a file (from history, say) parsed with the indexing extractor: its declarations. */
export type DeclarationParser = (job: {
  readonly path: string;
  readonly language: LanguageId;
  readonly source: string;
}) => Promise<
  | { readonly kind: 'parsed'; readonly symbols: readonly SymbolFact[] }
  | { readonly kind: 'failed'; readonly reason: string }
>;

/** The services every mesh operation receives in its context. */
export interface MeshServices {
  readonly index: IndexReader;
  /** The registered language of a file (its body layout, fence, import conventions). */
  readonly languages: (language: LanguageId | undefined) => LanguageSpec | undefined;
  readonly docs?: DocsSettings;
  /** Parses a file's text that is not the indexed one (an older revision); absent, history modes say so. */
  readonly parseDeclarations?: DeclarationParser;
}
