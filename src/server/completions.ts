/**
 * `completion/complete`: a prompt's service or target argument, and a resource template's variable, are
 * completed with the names the index holds, or the keys of the workspace's notes.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { matching, type IndexCatalog } from './catalog.js';
import { PROMPTS } from './prompts.js';
import { TEMPLATES } from './resources.js';

/** The catalog list that completes an argument, or undefined when the index cannot. */
function namesFor(
  ref: { type: string; name?: string; uri?: string },
  argument: string,
): keyof IndexCatalog | undefined {
  if (ref.type === 'ref/prompt')
    return PROMPTS.find((p) => p.name === ref.name)?.arguments.find((a) => a.name === argument)?.names;
  if (ref.type === 'ref/resource') {
    const template = TEMPLATES.find((t) => ref.uri?.startsWith(t.prefix) && t.variable === argument);
    return template?.names;
  }
  return undefined;
}

export function registerCompletions(server: Server, catalog: IndexCatalog): void {
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    const names = namesFor(ref as { type: string; name?: string; uri?: string }, argument.name);
    if (names === undefined) return { completion: { values: [], total: 0, hasMore: false } };
    const { values, total } = matching(await catalog[names](), argument.value);
    return { completion: { values, total, hasMore: total > values.length } };
  });
}
