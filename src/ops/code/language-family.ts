/**
 * The language family of a file: languages that import each other's declarations (TypeScript and JavaScript,
 * Java and Kotlin) share one, so a name used in one can be declared in another; any other language is a
 * family of its own.
 */
import type { IndexedFile } from '../../index/reader.js';
import type { MeshServices } from '../services.js';

export const familyOf = (languages: MeshServices['languages'], file: IndexedFile): string =>
  languages(file.language)?.imports?.family ?? file.language ?? '';
