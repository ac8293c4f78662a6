/**
 * What meshlens knows about one language, declared once in the language's own folder
 * (`languages/<lang>/spec.ts`) and registered in `registry.ts`. The crawler, the guard, the parse workers,
 * import resolution, the build script and the operations all read these fields; nothing else names a
 * language.
 */
import type { ImportFact, LanguageId } from '../facts.js';
import type { RootImportSettings } from '../graph/imports-settings.js';
import type { IndexedFile } from '../snapshot.js';
import type { Extractor } from './extractor.js';
import type { Resolution } from './shared/import-resolution.js';

/** A tree-sitter grammar: the `.wasm` an official npm package ships, and the name it gets in `dist/grammars`. */
export interface GrammarSource {
  /** File name in the grammars folder, e.g. `tree-sitter-go.wasm`. */
  readonly file: string;
  /** Path of the `.wasm` inside node_modules, e.g. `tree-sitter-go/tree-sitter-go.wasm`. */
  readonly from: string;
}

/** What an import resolver may index once per snapshot. */
export interface ImportContext {
  readonly files: readonly IndexedFile[];
  /** Indexed files by absolute, `/`-separated path. */
  readonly byPath: ReadonlyMap<string, IndexedFile>;
  readonly settings: readonly RootImportSettings[];
  /** Whether a file's language resolves imports in this family: only such a file can be an import's target. */
  readonly inFamily: (file: IndexedFile) => boolean;
}

/** Resolves one import fact of one file; built once per snapshot and family. */
export type ResolveImport = (file: IndexedFile, fact: ImportFact) => Resolution;

/** How a language's import specifiers map to workspace files. */
export interface ImportRules {
  /**
   * Languages that resolve alike share one family (TypeScript, TSX and JavaScript): one resolver is built for
   * the family and its answers are shared.
   */
  readonly family: string;
  /**
   * The folder an answer depends on besides the specifier: the importer's folder for a relative specifier,
   * else its root. Answers are memoised per (family, scope, specifier[, names]).
   */
  scope(file: IndexedFile, fact: ImportFact): string;
  /** The imported names change the answer (Python `from x import y`, JVM static imports). */
  readonly byNames?: boolean;
  create(context: ImportContext): ResolveImport;
}

/** How a declaration's body is laid out, so that search can strip it and keep the signature. */
export type BodyLayout =
  /** Braces or `end` after the signature; the symbol's body lines exclude them. */
  | 'delimited'
  /** The symbol's body lines include the braces (tree-sitter's class_body in the JVM grammars). */
  | 'braces-included'
  /** The body is the indented block under the signature (Python). */
  | 'indented';

/** What the language's call sites tell the call graph, for the coverage table of docs/tools.md. */
export interface CallCoverage {
  /** Where a receiver's type is read from, in a few words (`parameters, fields, locals, new`). */
  readonly receiverTypes: string;
  /** Where supertypes come from (`extends, implements`); absent: none recorded. */
  readonly supertypes?: string;
}

export interface LanguageSpec {
  readonly id: LanguageId;
  /** Lower-case extensions with the dot, matched against the end of the lower-cased file name. */
  readonly extensions: readonly string[];
  /**
   * Rules on the lower-cased file name that win over every extension: `application-dev.yml` is Spring
   * configuration, not plain YAML.
   */
  readonly fileNames?: readonly RegExp[];
  /** Absent when another parser (protobufjs, yaml, the Markdown scanner) reads the source. */
  readonly grammar?: GrammarSource;
  /** `#` starts a comment, for the guard's bracket scanner. */
  readonly hashComments?: boolean;
  /** Prose or configuration, not code: a long line or deep nesting is no sign of a generated file. */
  readonly prose?: boolean;
  /**
   * Loads the extractor, on first use in each parse worker: a process that only answers queries never loads
   * extraction code. Absent: the file is indexed with empty facts.
   */
  readonly extractor?: () => Promise<Extractor>;
  readonly imports?: ImportRules;
  /**
   * Import statements name the bindings they take (`import { a } from`, `from x import a`), so a named
   * import of something else from a file is no dependency on the target.
   */
  readonly namedImports?: boolean;
  /** Module name a file is imported by, when it is not the file path (Python's dotted `pkg.mod`). */
  readonly moduleName?: (pathWithoutExtension: string) => string;
  /** Files are imported through their folder (Go packages). */
  readonly importedByFolder?: boolean;
  /** The extractor records call sites (absent: it does not). */
  readonly calls?: CallCoverage;
  /** An interface is satisfied by any type whose methods cover its method names (Go), not by declaration. */
  readonly structuralInterfaces?: boolean;
  /** Default `delimited`. */
  readonly bodyLayout?: BodyLayout;
  /** Info string of a Markdown code fence; default: the id. */
  readonly fence?: string;
  /** The team's documentation (searched by `docs search`, checked against `[docs] paths`). */
  readonly documentation?: boolean;
  /** Declares gRPC services and messages (checked against `[contracts] proto_dirs`). */
  readonly grpcSchema?: boolean;
  /** Configuration, not code (YAML, properties, build manifests): a folder of contracts may hold it. */
  readonly configuration?: boolean;
}
