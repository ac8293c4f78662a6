import type { ImportRules } from '../../language-spec.js';
import { JvmImports } from './resolve-imports.js';

/** Java and Kotlin resolve each other's imports: one resolver for both. */
export const jvmImports: ImportRules = {
  family: 'jvm',
  scope: (file) => file.root,
  byNames: true,
  create: ({ files, inFamily }) => {
    const resolver = new JvmImports(files, inFamily);
    return (file, fact) => resolver.resolve(file, fact);
  },
};
