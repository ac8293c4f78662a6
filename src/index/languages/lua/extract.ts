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
  const declarations = root === undefined ? undefined : readLuaDeclarations(root, input.source, builder);
  addWrkRequests(input.source, builder);
  if (root === undefined || declarations === undefined) return builder.build();
  return builder.build({ calls: collectCalls(root, luaCallSyntax(declarations), builder.symbols) });
}
