/**
 * `completion/complete`: a prompt's service or target argument, and a resource template's variable, are
 * completed with the names the index holds, or the keys of the workspace's notes.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ViewOf } from './caller-view.js';
import { matching, type IndexCatalog } from './catalog.js';
import { offeredPrompts, type PromptEntry } from './prompts.js';
import { offeredTemplates, type ResourceTemplateEntry } from './resources.js';

/** The catalog list that completes an argument, or undefined when the index cannot. */
function namesFor(
  ref: { type: string; name?: string; uri?: string },
  argument: string,
  offered: { prompts: readonly PromptEntry[]; templates: readonly ResourceTemplateEntry[] },
): keyof IndexCatalog | undefined {
  if (ref.type === 'ref/prompt')
    return offered.prompts.find((p) => p.name === ref.name)?.arguments.find((a) => a.name === argument)
      ?.names;
  if (ref.type === 'ref/resource') {
    const template = offered.templates.find((t) => ref.uri?.startsWith(t.prefix) && t.variable === argument);
    return template?.names;
  }
  return undefined;
}

/** Only the prompts and templates the caller is offered are completed: names are data too. */
export function registerCompletions(server: Server, catalog: IndexCatalog, viewOf: ViewOf): void {
  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const { ref, argument } = request.params;
    const { registry, surface } = await viewOf(extra);
    const offered = { prompts: offeredPrompts(surface), templates: offeredTemplates(registry) };
    const names = namesFor(ref as { type: string; name?: string; uri?: string }, argument.name, offered);
    if (names === undefined) return { completion: { values: [], total: 0, hasMore: false } };
    const { values, total } = matching(await catalog[names](), argument.value);
    return { completion: { values, total, hasMore: total > values.length } };
  });
}
