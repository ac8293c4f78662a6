/**
 * The language family of a file: languages that import each other's declarations (TypeScript and JavaScript,
 * Java and Kotlin) share one, so a name used in one can be declared in another; any other language is a
 * family of its own.
 */
import type { IndexedFile, LanguageId } from '../../index/reader.js';
import type { MeshServices } from '../services.js';

export const familyOfLanguage = (
  languages: MeshServices['languages'],
  language: LanguageId | undefined,
): string => languages(language)?.imports?.family ?? language ?? '';

export const familyOf = (languages: MeshServices['languages'], file: IndexedFile): string =>
  familyOfLanguage(languages, file.language);
