import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Only a name with a character outside ASCII can have another Unicode spelling. */
const NON_ASCII = /[^\p{ASCII}]/u;
const isAscii = (text: string): boolean => !NON_ASCII.test(text);

function present(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The entry of `dir` spelt like `name` once both are in NFC, if there is one (the first in byte order). */
function entrySpelledLike(dir: string, name: string): string | undefined {
  if (isAscii(name)) return undefined;
  const wanted = name.normalize('NFC');
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  return entries.filter((entry) => entry.normalize('NFC') === wanted).sort()[0];
}

/**
 * An absolute path as it is spelt on disk. Some file systems compare names byte for byte (Linux), others
 * whatever their Unicode normalisation (macOS): a folder written in NFD (`é` as `e` + U+0301, as macOS tools
 * and some archives write it) is then not found under the NFC spelling a keyboard produces, nor the other way
 * round. Each segment that does not exist as given is replaced by the folder entry with the same NFC form;
 * from the first segment that matches nothing, the rest is kept as given. The path must be resolved (no `..`).
 */
export function diskSpelling(absolute: string): string {
  if (isAscii(absolute) || present(absolute)) return absolute;
  const { root } = path.parse(absolute);
  const segments = absolute.slice(root.length).split(path.sep).filter(Boolean);
  let current = root;
  for (const [index, segment] of segments.entries()) {
    const given = path.join(current, segment);
    if (present(given)) {
      current = given;
      continue;
    }
    const entry = entrySpelledLike(current, segment);
    if (entry === undefined) return path.join(given, ...segments.slice(index + 1));
    current = path.join(current, entry);
  }
  return current;
}
