// Reads the grammars from the language registry itself (src/index/languages/registry.ts), so that the build
// copies exactly the .wasm files the registered languages name. The registry is bundled to a temp module
// and imported; extractors load lazily, so importing it runs no extraction code.
import { build } from 'esbuild';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** `[{ file, from }]`: each grammar's name in dist/grammars and its path inside node_modules, sorted. */
export async function registeredGrammars(root) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/index/languages/registry.ts'],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'warning',
  });
  // Inside the package, so that the module's own imports resolve from node_modules.
  await mkdir(path.join(root, 'node_modules', '.cache'), { recursive: true });
  const dir = await mkdtemp(path.join(root, 'node_modules', '.cache', 'meshlens-registry-'));
  try {
    const module = path.join(dir, 'registry.mjs');
    await writeFile(module, result.outputFiles[0].text);
    return (await import(pathToFileURL(module).href)).GRAMMARS;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
