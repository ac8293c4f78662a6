/**
 * The one list of extractors. Adding a language is one file in this folder (e.g. `go.ts` exporting
 * `extractGo`) plus one entry here; a language with a grammar but no entry is still parsed and yields
 * `emptyFacts(language)`, so a missing extractor never makes a file fail.
 */
import { extractC, extractCpp } from './cpp/extract.js';
import { extractCsharp } from './csharp/extract.js';
import type { ExtractorMap } from './extractor.js';
import { extractGo } from './go/extract.js';
import { extractJava } from './java/extract.js';
import { extractKotlin } from './kotlin/extract.js';
import { extractMarkdown } from './markdown/extract.js';
import { extractOpenApi } from './openapi/extract.js';
import { extractProto } from './proto/extract.js';
import { extractScala } from './scala/extract.js';
import { extractSpring } from './spring/extract.js';
import { extractYaml } from './yaml/extract.js';
import { extractPhp } from './php/extract.js';
import { extractPython } from './python/extract.js';
import { extractRuby } from './ruby/extract.js';
import { extractRust } from './rust/extract.js';
import { extractTypeScript } from './typescript/extract.js';

export const EXTRACTORS: ExtractorMap = {
  typescript: extractTypeScript,
  tsx: extractTypeScript,
  javascript: extractTypeScript,
  python: extractPython,
  csharp: extractCsharp,
  ruby: extractRuby,
  php: extractPhp,
  java: extractJava,
  kotlin: extractKotlin,
  scala: extractScala,
  proto: extractProto,
  openapi: extractOpenApi,
  asyncapi: extractOpenApi,
  spring: extractSpring,
  yaml: extractYaml,
  markdown: extractMarkdown,
  go: extractGo,
  rust: extractRust,
  cpp: extractCpp,
  c: extractC,
};
