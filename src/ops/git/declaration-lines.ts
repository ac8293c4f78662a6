/**
 * Where one indexed declaration is in the text being asked about: the indexed lines when that text is the
 * indexed one, else the lines of the same declaration (kind and qualified name) in the other version,
 * parsed with the indexing extractor.
 */
import { readFileSync } from 'node:fs';
import { ToolError } from '../../core/errors.js';
import type { IndexedFile, SymbolFact } from '../../index/reader.js';
import { readBlobs } from '../shared/git/cat-file.js';
import { changedSinceIndexed } from '../shared/indexed-text.js';
import type { DeclarationParser } from '../services.js';
import { declarationKey, findDeclaration, MAX_VERSION_BYTES, parseVersion } from './declaration-versions.js';
import { repoRelative, shortSha, type WorkspaceRepository } from './repository.js';

/** Which of the namesakes (overloads) sharing its kind and qualified name the declaration is. */
export function occurrenceOf(file: IndexedFile, symbol: SymbolFact): number {
  const key = declarationKey(symbol);
  return file.facts.symbols.filter((s) => s.id < symbol.id && declarationKey(s) === key).length;
}

async function linesIn(
  parser: DeclarationParser,
  file: IndexedFile,
  symbol: SymbolFact,
  text: string,
  where: string,
): Promise<{ start: number; end: number }> {
  if (file.language === undefined) throw new ToolError('invalid_argument', 'The file has no language.');
  const parsed = await parseVersion(parser, file.path, file.language, text);
  if (parsed.kind === 'failed')
    throw new ToolError('unavailable', `The file ${where} could not be parsed: ${parsed.reason}.`);
  const found = findDeclaration(parsed.declarations, declarationKey(symbol), occurrenceOf(file, symbol));
  if (!found)
    throw new ToolError(
      'not_found',
      `${symbol.kind} \`${symbol.qualifiedName}\` is not declared in the file ${where}.`,
    );
  return { start: found.startLine, end: found.endLine };
}

/** The declaration's lines in the working tree (commit undefined) or at a commit. */
export async function declarationLines(
  parser: DeclarationParser,
  repo: WorkspaceRepository,
  file: IndexedFile,
  symbol: SymbolFact,
  commit: string | undefined,
  signal: AbortSignal,
): Promise<{ start: number; end: number }> {
  if (commit === undefined) {
    if (!changedSinceIndexed(file)) return { start: symbol.startLine, end: symbol.endLine };
    let text: string;
    try {
      text = readFileSync(file.absolutePath, 'utf8');
    } catch {
      throw new ToolError('not_found', 'The file can no longer be read; it may have been deleted.');
    }
    return linesIn(parser, file, symbol, text, 'in the working tree');
  }
  const [blob] = await readBlobs([`${commit}:${repoRelative(repo, file.absolutePath)}`], {
    cwd: repo.top,
    signal,
    maxBlobBytes: MAX_VERSION_BYTES,
  });
  const where = `at \`${shortSha(commit)}\``;
  if (blob?.kind !== 'content')
    throw new ToolError(
      'not_found',
      blob?.kind === 'too_large'
        ? `The file ${where} is too large to parse.`
        : `The file is not in the tree ${where}.`,
    );
  return linesIn(parser, file, symbol, blob.text, where);
}
