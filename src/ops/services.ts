import type { IndexReader } from '../index/reader.js';

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
  readonly docs?: DocsSettings;
}
