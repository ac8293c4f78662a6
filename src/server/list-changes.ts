import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallerView } from './caller-view.js';
import { offeredPrompts } from './prompts.js';
import { offeredResourceUris } from './resources.js';
import type { Surface } from './surface.js';

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * After the served registry was replaced (a config reload: disabled domains, visibility tiers), tells the
 * client which of its lists changed, as the session's caller sees them: tools, prompts, resources. A list
 * that came out the same is not announced, so a reload that changed nothing this caller sees sends nothing.
 * A client that is not connected yet has nothing to refresh.
 */
export function announceListChanges(server: Server, before: CallerView, after: CallerView): void {
  const [was, now] = [before.surface, after.surface];
  const ignore = () => undefined;
  if (!sameJson(was.tools(), now.tools())) void server.sendToolListChanged().catch(ignore);
  const promptNames = (surface: Surface) => offeredPrompts(surface).map((p) => p.name);
  if (!sameJson(promptNames(was), promptNames(now))) void server.sendPromptListChanged().catch(ignore);
  if (!sameJson(offeredResourceUris(before.registry), offeredResourceUris(after.registry)))
    void server.sendResourceListChanged().catch(ignore);
}
