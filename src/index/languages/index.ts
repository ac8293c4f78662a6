/**
 * The one list of extractors. Adding a language is one file in this folder (e.g. `go.ts` exporting
 * `extractGo`) plus one entry here; a language with a grammar but no entry is still parsed and yields
 * `emptyFacts(language)`, so a missing extractor never makes a file fail.
 */
import type { ExtractorMap } from './extractor.js';

export const EXTRACTORS: ExtractorMap = {};
