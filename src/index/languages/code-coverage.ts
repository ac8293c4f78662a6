/**
 * Which languages each `code` mode covers and how, read off the language specs: the table docs/tools.md
 * shows, so that what the reference claims is what the registry declares.
 */
import { LANGUAGES } from './registry.js';

export interface CodeCoverageRow {
  readonly language: string;
  /** outline, expand, grep, files. */
  readonly declarations: string;
  /** definition, references, callers, callees. */
  readonly calls: string;
  readonly implementations: string;
}

export function codeCoverage(): CodeCoverageRow[] {
  return LANGUAGES.filter((spec) => spec.grammar !== undefined).map((spec) => {
    const calls = spec.calls;
    const binds = [
      ...(spec.imports ? ['imports'] : []),
      'own type',
      ...(calls ? [`receiver types (${calls.receiverTypes})`] : []),
      'same file',
      spec.importedByFolder ? 'same package' : 'same folder',
    ];
    return {
      language: spec.id,
      declarations: spec.extractor ? 'yes' : 'grep and files only',
      calls: calls
        ? `resolved through ${binds.join(', ')}; name-matched otherwise${spec.imports ? '' : ' (imports are not resolved: module calls are matched by type or package name)'}`
        : 'no call sites: references by name only',
      implementations: calls?.supertypes
        ? `declared (${calls.supertypes})${spec.structuralInterfaces ? ', and method sets (structural, heuristic)' : ''}`
        : '—',
    };
  });
}
