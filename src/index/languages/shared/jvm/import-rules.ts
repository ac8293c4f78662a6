import type { ImportRules } from '../../language-spec.js';
import { JvmImports } from './resolve-imports.js';

/** Java and Kotlin resolve each other's imports: one resolver for both. */
export const jvmImports: ImportRules = {
  family: 'jvm',
  scope: (file) => file.root,
  byNames: true,
  create: ({ files }) => {
    const resolver = new JvmImports(files);
    return (file, fact) => resolver.resolve(file, fact);
  },
};
