import type { AnyOperation, Domain } from '../core/operation.js';
import type { Registry } from '../core/registry.js';
import { domainInputSchema, flatInputSchema, type JsonSchemaObject } from '../core/schema.js';
import type { CallAddress } from '../core/validation.js';
import { lazy } from '../core/lazy.js';
import { outputSchemaOf, type OutputSchema } from './output-schema.js';

export const SURFACES = ['domain', 'flat'] as const;
export type SurfaceKind = (typeof SURFACES)[number];

export interface ToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema: OutputSchema;
  readonly annotations: ToolAnnotations;
}

/**
 * The union of several operations' side effects, resolved toward the side effect: one writing mode makes
 * the whole tool non-read-only, one destructive mode makes it destructive, one non-idempotent mode makes it
 * non-idempotent, and one open-world mode makes it open-world.
 */
export function annotationsOf(title: string, ops: readonly AnyOperation[]): ToolAnnotations {
  const writes = ops.some((op) => op.capabilities.writes);
  return {
    title,
    readOnlyHint: !writes,
    destructiveHint: ops.some((op) => op.capabilities.writes && op.capabilities.destructive),
    idempotentHint: ops.every((op) => !op.capabilities.writes || op.capabilities.idempotent),
    openWorldHint: ops.some((op) => op.capabilities.openWorld),
  };
}

const DOMAIN_TITLES: Record<Domain, string> = {
  code: 'Code: declarations, outlines, bodies, files and text',
  contracts: 'Contracts: dependents, gRPC, impact',
  docs: 'Docs: team documentation',
  graph: 'Graph: service topology, call chains, neighbourhoods',
  git: 'Git: history, blame and diffs of the workspace repositories, read-only',
  admin: 'Admin: index status',
};

function domainDescription(domain: Domain, ops: readonly AnyOperation[]): string {
  const lines = ops.map((op) => `- mode "${op.mode}" (${op.flatName}): ${op.description}`);
  return `${DOMAIN_TITLES[domain]}. Pick a mode; every other field is optional unless the mode requires it.\n${lines.join('\n')}`;
}

/** A generated tool list and the way back from a tool name to the operation it addresses. */
export interface Surface {
  readonly kind: SurfaceKind;
  tools(): readonly ToolDefinition[];
  /** Undefined for an unknown tool name (a protocol fault, not a tool failure). */
  resolve(toolName: string): CallAddress | undefined;
  /** How to call an operation on this surface, for prose: `analyze_impact`, or `contracts` mode `impact`. */
  callOf(domain: string, mode: string): string | undefined;
}

/** The surface of each registry served, built once per registry (a config reload brings another). */
export function surfacesOf(kind: SurfaceKind): (registry: Registry) => Surface {
  const built = new WeakMap<Registry, Surface>();
  return (registry) => {
    let surface = built.get(registry);
    if (!surface) built.set(registry, (surface = createSurface(kind, registry)));
    return surface;
  };
}

export function createSurface(kind: SurfaceKind, registry: Registry): Surface {
  if (kind === 'flat') {
    // Built on the first tools/list, not before `initialize` is answered: the schemas take a few ms.
    const tools = lazy(() =>
      registry.operations().map((op): ToolDefinition => ({
        name: op.flatName,
        title: op.title,
        description: op.description,
        inputSchema: flatInputSchema(op),
        outputSchema: outputSchemaOf([op]),
        annotations: annotationsOf(op.title, [op]),
      })),
    );
    return {
      kind,
      tools,
      resolve(name) {
        const op = registry.byFlatName(name);
        return op ? { kind: 'operation', op, label: op.flatName } : undefined;
      },
      callOf(domain, mode) {
        const op = registry.byDomainMode(domain, mode);
        return op ? `\`${op.flatName}\`` : undefined;
      },
    };
  }
  const domains = registry.domains().map(({ domain, ops }) => splitWrites(domain, ops));
  const tools = lazy(() =>
    domains.flatMap(({ domain, reads, writes }): ToolDefinition[] => [
      ...(reads.length > 0
        ? [
            {
              name: domain,
              title: DOMAIN_TITLES[domain],
              description: domainDescription(domain, reads),
              inputSchema: domainInputSchema(domain, reads),
              outputSchema: outputSchemaOf(reads),
              annotations: annotationsOf(DOMAIN_TITLES[domain], reads),
            },
          ]
        : []),
      ...writes.map((op) => ({
        name: writingToolName(op),
        title: op.title,
        description: op.description,
        inputSchema: flatInputSchema(op),
        outputSchema: outputSchemaOf([op]),
        annotations: annotationsOf(op.title, [op]),
      })),
    ]),
  );
  return {
    kind,
    tools,
    resolve(name) {
      for (const { domain, reads, writes } of domains) {
        if (name === domain && reads.length > 0) return { kind: 'domain', domain, ops: reads };
        const op = writes.find((w) => writingToolName(w) === name);
        if (op) return { kind: 'operation', op, label: name };
      }
      return undefined;
    },
    callOf(domain, mode) {
      const entry = domains.find((d) => d.domain === domain);
      if (entry?.reads.some((op) => op.mode === mode)) return `\`${domain}\` with mode \`${mode}\``;
      const op = entry?.writes.find((w) => w.mode === mode);
      return op ? `\`${writingToolName(op)}\`` : undefined;
    },
  };
}

/**
 * A domain's reading modes share its tool; a writing mode beside them gets a tool of its own
 * (`admin_rescan`), so that the reading tool is truthfully read-only and a client may approve it once.
 * A domain made only of writing modes keeps one tool.
 */
function splitWrites(
  domain: Domain,
  ops: readonly AnyOperation[],
): { domain: Domain; reads: readonly AnyOperation[]; writes: readonly AnyOperation[] } {
  const reads = ops.filter((op) => !op.capabilities.writes);
  if (reads.length === 0) return { domain, reads: ops, writes: [] };
  return { domain, reads, writes: ops.filter((op) => op.capabilities.writes) };
}

const writingToolName = (op: AnyOperation): string => `${op.domain}_${op.mode}`;
