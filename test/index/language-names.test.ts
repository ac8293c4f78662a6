/**
 * Nothing outside src/index/languages/ names a language: behaviour that depends on a language is a field of
 * its LanguageSpec, read through the registry (or `services.languages` in the operations). This scans every
 * other source file for a quoted registered id.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { LANGUAGES } from '../../src/index/languages/registry.js';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** Quoted words that equal a language id but mean something else, with the reason. */
const NOT_A_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  // The name of the `proto` argument of `contracts grpc` (a path to a .proto file).
  'ops/contracts/grpc.ts': ['proto'],
  // Folder names that hold one shared root (`proto/`, `protos/`), not file languages.
  'cli/init-command.ts': ['proto'],
  // A sample of serialised facts for the cache's deflate dictionary: bytes, not behaviour.
  'store/fact-cache-encoding.ts': ['typescript'],
  // The YAML parser package the service model reads deploy manifests with (one import point).
  'index/services/yaml-tree.ts': ['yaml'],
  // The file formats of MCP clients' config files (Continue's YAML), and the parser package that writes them.
  'cli/ide/clients.ts': ['yaml'],
  'cli/ide/yaml-config.ts': ['yaml'],
  'cli/ide-config.ts': ['yaml'],
  // The id prefix of a contracts-folder node (`c3`), beside `s` for services and `t` for topics.
  'ops/graph/fold.ts': ['c'],
  // dagre's edge-label position: `c` for centre.
  'render/topology-page-layout.ts': ['c'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory())
      return full === path.join(src, 'index', 'languages') ? [] : sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

test('no source file outside src/index/languages names a registered language', () => {
  const ids = LANGUAGES.map((spec) => spec.id);
  const quoted = new RegExp(`['"](${ids.join('|')})['"]`, 'g');
  const found: string[] = [];
  for (const file of sourceFiles(src)) {
    const relative = path.relative(src, file).split(path.sep).join('/');
    const allowed = NOT_A_LANGUAGE[relative] ?? [];
    for (const match of readFileSync(file, 'utf8').matchAll(quoted)) {
      const id = match[1] ?? '';
      if (!allowed.includes(id)) found.push(`${relative}: '${id}'`);
    }
  }
  expect(found).toEqual([]);
});
