/**
 * Lua: declarations, `require` imports and call sites from the parse tree, and the HTTP requests of wrk
 * load scripts (read from the source lines, see wrk.ts).
 */
import type { FileFacts } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { collectCalls } from '../shared/call-sites.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { luaCallSyntax } from './calls.js';
import { readLuaDeclarations } from './declarations.js';
import { addWrkRequests } from './wrk.js';

export function extractLua(input: ExtractInput): FileFacts {
  const builder = new FactBuilder(input.language);
  const root = input.tree?.rootNode;
  if (root === undefined) {
    addWrkRequests(input.source, builder);
    return builder.build();
  }
  const tables = readLuaDeclarations(root, input.source, builder);
  // The call pass also reads the `require` imports.
  const calls = collectCalls(root, luaCallSyntax(tables, builder), builder.symbols);
  addWrkRequests(input.source, builder);
  return builder.build({ calls });
}
