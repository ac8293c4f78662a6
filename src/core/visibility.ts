/**
 * Visibility tiers: which operations a caller may see, by its tenant and role. What a caller may not see
 * does not exist for it: it is not listed, and calling it gets the answer an unknown name gets. The table is
 * fail-closed: a key whose role is listed nowhere sees nothing. The local principal (stdio, the CLI) sees
 * every enabled operation.
 */
import { ConfigError } from './config.js';
import type { MeshConfig } from './config-schema.js';
import { ToolError } from './errors.js';
import type { Principal } from './principal.js';
import { nearest } from './suggest.js';
import type { CallAddress } from './validation.js';

export type VisibilitySection = MeshConfig['server']['visibility'];

interface Named {
  readonly domain: string;
  readonly mode: string;
}

/** What one caller may see. Callers that share an entry of the table share its `key` (and its tools). */
export interface VisibleSet {
  readonly key: string;
  /** Everything the server serves: the local principal. */
  readonly everything: boolean;
  allows(op: Named): boolean;
}

const EVERYTHING: VisibleSet = { key: 'local', everything: true, allows: () => true };

/** A rule as written: `*` (everything), `code` or `code.*` (a whole domain), `code.search` (one mode). */
function ruleMatcher(rule: string): (op: Named) => boolean {
  if (rule === '*') return () => true;
  const [domain, mode = '*'] = rule.split('.', 2);
  return mode === '*' ? (op) => op.domain === domain : (op) => op.domain === domain && op.mode === mode;
}

function setOf(key: string, rules: readonly string[]): VisibleSet {
  const matchers = rules.map(ruleMatcher);
  return { key, everything: false, allows: (op) => matchers.some((matches) => matches(op)) };
}

/** `[server.visibility]` compiled: the set each principal may see. */
export class VisibilityTable {
  private readonly sets = new Map<string, VisibleSet>();

  constructor(private readonly section: VisibilitySection) {}

  /**
   * A key sees its tenant's entry for its role when the tenant has one (it replaces the role's entry),
   * else its role's entry, else nothing.
   */
  setFor(principal: Principal): VisibleSet {
    if (principal.kind === 'local') return EVERYTHING;
    const { tenant, role } = principal;
    const override = Object.hasOwn(this.section.tenants, tenant)
      ? this.section.tenants[tenant]?.[role]
      : undefined;
    const [key, rules] =
      override !== undefined
        ? [JSON.stringify(['tenant', tenant, role]), override]
        : Object.hasOwn(this.section.roles, role)
          ? [JSON.stringify(['role', role]), this.section.roles[role] ?? []]
          : ['nothing', []];
    let set = this.sets.get(key);
    if (!set) this.sets.set(key, (set = setOf(key, rules)));
    return set;
  }
}

/**
 * Every rule of the table that names a domain or mode the server does not have, with the valid names; an
 * empty list when the table is sound. `operations`: every operation built in, enabled or not.
 */
export function visibilityProblems(section: VisibilitySection, operations: readonly Named[]): string[] {
  const entries: [string, readonly string[]][] = [
    ...Object.entries(section.roles).map(([role, rules]): [string, readonly string[]] => [
      `[server.visibility.roles] ${role}`,
      rules,
    ]),
    ...Object.entries(section.tenants).flatMap(([tenant, roles]) =>
      Object.entries(roles).map(([role, rules]): [string, readonly string[]] => [
        `[server.visibility.tenants.${tenant}] ${role}`,
        rules,
      ]),
    ),
  ];
  const domains = [...new Set(operations.map((op) => op.domain))];
  const problems: string[] = [];
  for (const [where, rules] of entries) {
    for (const rule of rules) {
      const problem = ruleProblem(rule, domains, operations);
      if (problem) problems.push(`${where}: ${problem}`);
    }
  }
  return problems;
}

function ruleProblem(
  rule: string,
  domains: readonly string[],
  operations: readonly Named[],
): string | undefined {
  if (rule === '*') return undefined;
  const parts = rule.split('.');
  const [domain = '', mode = '*'] = parts;
  if (parts.length > 2 || domain === '' || mode === '')
    return `\`${rule}\` is not a rule: write \`*\`, a domain (\`code\` or \`code.*\`) or one mode (\`code.search\`)`;
  if (!domains.includes(domain)) {
    const guess = nearest(domain, domains);
    return `unknown domain \`${domain}\`${guess ? ` — did you mean \`${guess}\`?` : ''} (domains: ${domains.join(', ')})`;
  }
  if (mode === '*') return undefined;
  const modes = operations.filter((op) => op.domain === domain).map((op) => op.mode);
  if (modes.includes(mode)) return undefined;
  const guess = nearest(mode, modes);
  return `unknown mode \`${domain}.${mode}\`${guess ? ` — did you mean \`${domain}.${guess}\`?` : ''} (modes of ${domain}: ${modes.join(', ')})`;
}

/** The table, checked against the operations built in; a ConfigError naming every bad rule otherwise. */
export function visibilityTableOf(
  section: VisibilitySection | undefined,
  operations: readonly Named[],
  file?: string,
): VisibilityTable {
  const table = section ?? { roles: {}, tenants: {} };
  const problems = visibilityProblems(table, operations);
  if (problems.length > 0) {
    throw new ConfigError(
      `Invalid config${file ? ` ${file}` : ''}:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  return new VisibilityTable(table);
}

/** Whether the table says anything; without it every key sees nothing and the local principal everything. */
export const hasVisibilityRules = (section: VisibilitySection): boolean =>
  Object.keys(section.roles).length > 0 || Object.keys(section.tenants).length > 0;

/**
 * An address as a caller of `visible` may use it: a domain tool's modes narrowed to the visible ones (so a
 * hidden mode is refused as a mode that does not exist), a hidden single operation refused as unknown. The
 * server resolves names from the caller's view already; this holds for any other way in.
 */
export function visibleAddress(address: CallAddress, visible: VisibleSet): CallAddress {
  if (address.kind === 'domain') return { ...address, ops: address.ops.filter((op) => visible.allows(op)) };
  if (visible.allows(address.op)) return address;
  throw new ToolError('invalid_argument', `Unknown tool: ${address.label}.`);
}
