import type { NotesStore } from '../core/notes.js';
import type { IndexReader, LanguageId, LanguageSpec } from '../index/reader.js';

/** Docs search vocabulary from `[docs]` in the config. */
export interface DocsSettings {
  /** Folders or files (absolute) whose Markdown counts as docs; empty: every Markdown file. */
  readonly paths: readonly string[];
  readonly aliases: Readonly<Record<string, string>>;
  readonly stopWords: readonly string[];
  readonly exactPhraseBoost: number;
}

/** The services every mesh operation receives in its context. */
export interface MeshServices {
  readonly index: IndexReader;
  /** The registered language of a file (its body layout, fence, import conventions). */
  readonly languages: (language: LanguageId | undefined) => LanguageSpec | undefined;
  readonly docs?: DocsSettings;
  /** The workspace's notes (memory modes), opened on first use. */
  readonly notes?: () => Promise<NotesStore>;
}
