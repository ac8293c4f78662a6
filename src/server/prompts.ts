/**
 * MCP prompts: three workflows an agent is asked for often, written against the tools of the surface
 * being served (so `analyze_impact` on the flat surface, `contracts` mode `impact` on the domain one).
 * A prompt whose tools are disabled in this workspace is not offered.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { IndexCatalog } from './catalog.js';
import type { ViewOf } from './caller-view.js';
import type { Surface } from './surface.js';

type Tool = (domain: string, mode: string) => string;

export interface PromptArgument {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  /** Which catalog list completes it, when the index can. */
  readonly names?: keyof IndexCatalog;
}

export interface PromptEntry {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  /** The operations the text asks for: the prompt is offered only when all of them are. */
  readonly uses: readonly (readonly [string, string])[];
  text(args: Record<string, string>, tool: Tool): string;
}

export const PROMPTS: readonly PromptEntry[] = [
  {
    name: 'review_diff_impact',
    title: 'Review the impact of my diff',
    description:
      'Which declarations and contracts the current change touches, which services each change reaches, and which tests to run.',
    arguments: [
      {
        name: 'base',
        description:
          'The revision the working tree is compared with: "HEAD" (default) for uncommitted work, "origin/main" for a whole branch.',
        required: false,
        names: 'revisions',
      },
    ],
    uses: [
      ['contracts', 'impact'],
      ['contracts', 'grpc'],
      ['contracts', 'dependents'],
    ],
    text: (args, tool) => {
      const base = args.base?.trim() || 'HEAD';
      return [
        `Review the impact of the changes in the working tree since \`${base}\` on the services of this workspace.`,
        '',
        `1. Call ${tool('contracts', 'impact')} with \`diff: "${base}"\`. It compares every repository of the workspace with \`${base}\` (staged, unstaged and untracked files) and answers with a summary, the changes (wire-breaking ones first), one impact table across services and the tests worth running. Page with \`offset\` if the footer says there are more rows.`,
        `2. For a wire-breaking change, call ${tool('contracts', 'grpc')} with \`proto\` set to the file and \`base: "${base}"\` to see every method and caller it traces.`,
        `3. For a changed type or package that other code imports, call ${tool('contracts', 'dependents')}.`,
        '4. Report per service: what changes for it, the evidence (`path:line` from the answers), whether it breaks callers, what must be deployed together, and the tests to run. Start from the summary of step 1, which can be pasted as it is. Say plainly when nothing outside the changed service is reached.',
      ].join('\n');
    },
  },
  {
    name: 'tour_service',
    title: 'Tour a service',
    description: 'What a service is, what it serves, whom it talks to and what the docs say about it.',
    arguments: [
      {
        name: 'service',
        description: 'The service, by root or manifest name.',
        required: true,
        names: 'services',
      },
    ],
    uses: [
      ['graph', 'visualize'],
      ['contracts', 'dependents'],
      ['docs', 'search'],
      ['code', 'search'],
    ],
    text: (args, tool) =>
      [
        `Give me a tour of the service \`${args.service}\`.`,
        '',
        `1. Call ${tool('graph', 'visualize')} with \`service: "${args.service}"\` for its neighbours: what it calls, who calls it, the topics it produces and consumes.`,
        `2. For each contract it serves, call ${tool('contracts', 'dependents')} to see who depends on it.`,
        `3. Call ${tool('docs', 'search')} with the service's name for what the team wrote about it.`,
        `4. Call ${tool('code', 'search')} with \`path\` set to its folder for its main declarations.`,
        '5. Summarise: its purpose, its API (routes, RPCs, topics), its dependencies both ways, and anything the docs warn about, citing `path:line`.',
      ].join('\n'),
  },
  {
    name: 'change_contract_safely',
    title: 'Change a contract safely',
    description: 'A plan to change an RPC, topic or route without breaking the services that depend on it.',
    arguments: [
      {
        name: 'target',
        description: 'The contract: `Service.Method`, a topic or `METHOD /path`.',
        required: true,
        names: 'contracts',
      },
      {
        name: 'change',
        description: 'What you want to change, e.g. "add a required field".',
        required: false,
      },
    ],
    uses: [
      ['contracts', 'impact'],
      ['contracts', 'grpc'],
    ],
    text: (args, tool) =>
      [
        `I want to change the contract \`${args.target}\`${args.change ? `: ${args.change}` : ''}. Plan it so that nothing breaks.`,
        '',
        `1. Call ${tool('contracts', 'impact')} with \`target: "${args.target}"\` and \`depth: 3\`: every producer, consumer, caller and handler it reaches, with confidence.`,
        `2. If it is a gRPC method or service, call ${tool('contracts', 'grpc')} with it as \`target\` for the implementations and call sites, and after editing the .proto, again with \`base\` to check the wire compatibility.`,
        '3. Propose the order of changes (consumers tolerant first, then producers; additive before removal), and list every file to change with `path:line`.',
        '4. Name what cannot be seen from the index (callers outside the workspace, heuristic edges) and how to check it.',
      ].join('\n'),
  },
];

/** The prompts whose tools the surface serves. */
export const offeredPrompts = (surface: Surface): PromptEntry[] =>
  PROMPTS.filter((p) => p.uses.every(([d, m]) => surface.callOf(d, m) !== undefined));

/** Prompts follow the caller's view: one that asks for an operation the caller may not see is not offered. */
export function registerPrompts(server: Server, viewOf: ViewOf): void {
  server.setRequestHandler(ListPromptsRequestSchema, async (_request, extra) => ({
    prompts: offeredPrompts((await viewOf(extra)).surface).map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map(({ name, description, required }) => ({ name, description, required })),
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const { surface } = await viewOf(extra);
    const offered = offeredPrompts(surface);
    const prompt = offered.find((p) => p.name === request.params.name);
    if (!prompt) {
      const names = offered.map((p) => p.name);
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt: ${request.params.name}. Prompts: ${names.join(', ')}.`,
      );
    }
    const args = request.params.arguments ?? {};
    const missing = prompt.arguments.filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
    if (missing.length > 0)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Prompt ${prompt.name} requires ${missing.map((m) => `\`${m}\``).join(', ')}.`,
      );
    const tool: Tool = (domain, mode) => surface.callOf(domain, mode) ?? `\`${domain} ${mode}\``;
    return {
      description: prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args, tool) } }],
    };
  });
}
