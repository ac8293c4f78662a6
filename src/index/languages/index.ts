/**
 * The one list of extractors. Adding a language is one file in this folder (e.g. `go.ts` exporting
 * `extractGo`) plus one entry here; a language with a grammar but no entry is still parsed and yields
 * `emptyFacts(language)`, so a missing extractor never makes a file fail.
 */
import { extractC, extractCpp } from './cpp.js';
import { extractCsharp } from './csharp.js';
import type { ExtractorMap } from './extractor.js';
import { extractGo } from './go.js';
import { extractJava } from './java.js';
import { extractKotlin } from './kotlin.js';
import { extractMarkdown } from './markdown.js';
import { extractOpenApi } from './openapi.js';
import { extractProto } from './proto.js';
import { extractScala } from './scala.js';
import { extractSpring } from './spring.js';
import { extractYaml } from './yaml.js';
import { extractPhp } from './php.js';
import { extractPython } from './python.js';
import { extractRuby } from './ruby.js';
import { extractRust } from './rust.js';
import { extractTypeScript } from './typescript.js';

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
