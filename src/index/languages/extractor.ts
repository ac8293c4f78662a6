/**
 * The contract every language extractor fulfils: one file's source (and its parse tree when the language
 * has a grammar) in, that file's facts out. Extractors are pure and synchronous so that they run the same
 * in a worker thread and in-process, and the same input always yields the same facts.
 */
import type { Tree } from 'web-tree-sitter';
import type { FileFacts, LanguageId } from '../facts.js';

export interface ExtractInput {
  /** Root-relative, `/`-separated. */
  readonly path: string;
  readonly language: LanguageId;
  readonly source: string;
  /**
   * Absent for languages without a tree-sitter grammar (proto, YAML, Markdown…). Owned by the caller: it
   * is deleted right after extraction, so an extractor must not keep nodes beyond its return.
   */
  readonly tree?: Tree;
  /** Workspace settings extraction depends on; the same for every file of a run (part of the cache key). */
  readonly options?: ExtractOptions;
}

/** A custom convention from `[[contracts.patterns]]`, with its regex source (compiled by the extractor). */
export interface ExtractPattern {
  readonly name: string;
  readonly kind: 'topic_producer' | 'topic_consumer' | 'rpc' | 'saga';
  readonly regex: string;
  readonly filePattern?: string;
  readonly targetGroup: number;
  readonly consumerGroup?: number;
}

export interface ExtractOptions {
  readonly patterns?: readonly ExtractPattern[];
  /** Replace prompt-injection phrases in Markdown sections (default true). */
  readonly sanitizeDocs?: boolean;
  /** Record call sites (default true); `[code] call_graph = false` turns them off. */
  readonly calls?: boolean;
}

/** Pure: no I/O, no global state, no clock. Throwing marks the file as failed. */
export type Extractor = (input: ExtractInput) => FileFacts;

/** Which extractor handles which language; a language absent here is indexed with empty facts. */
export type ExtractorMap = Partial<Record<LanguageId, Extractor>>;
