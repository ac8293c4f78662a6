import { invalidArgument } from '../../core/errors.js';
import type { IndexedFile, SnapshotReader } from '../../index/reader.js';

/**
 * The `language` argument of the code modes as a file filter. A language no indexed file has is refused
 * with the ones the workspace holds, so that a misspelt id (`golang`, `ts`) is not an empty answer.
 */
export function languageFilter(
  snapshot: SnapshotReader,
  language: string | undefined,
): ((file: IndexedFile) => boolean) | undefined {
  if (language === undefined) return undefined;
  const wanted = language.trim().toLowerCase();
  const counts = new Map<string, number>();
  for (const file of snapshot.files) {
    if (file.language !== undefined) counts.set(file.language, (counts.get(file.language) ?? 0) + 1);
  }
  if (!counts.has(wanted)) {
    const present = [...counts]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([id, n]) => `\`${id}\` (${n})`)
      .join(', ');
    throw invalidArgument(
      `No indexed file is in language \`${language}\`. Languages in this workspace: ${present || '(none)'}.`,
    );
  }
  return (file) => file.language === wanted;
}
