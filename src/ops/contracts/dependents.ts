import { z } from 'zod';
import { pageFooter, takePage } from '../../core/budget.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { GraphNode, IndexedFile, SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { methodKey } from '../shared/graph-queries.js';
import { rejectedNote } from '../shared/rejected-note.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayPath, isTestPath } from '../shared/workspace-paths.js';
import { compareStrings as cmp } from '../../core/order.js';

type Languages = MeshServices['languages'];

interface Dependent {
  readonly root: string;
  readonly file: string;
  readonly line: number;
  /** The dependent declaration (or the file's top-level declarations for a module import). */
  readonly element: string;
  readonly via: string;
  readonly service: string;
}

const CONTRACT_EDGES = new Set([
  'calls_rpc',
  'implements',
  'produces',
  'consumes',
  'calls_http',
  'serves_http',
]);
const lastSegment = (source: string) =>
  source
    .split(/[/.:\\]/)
    .filter(Boolean)
    .pop() ?? source;

function topLevelNames(file: IndexedFile): string {
  const names = file.facts.symbols
    .filter((s) => s.parent === undefined && s.kind !== 'heading')
    .map((s) => s.name);
  if (names.length === 0) return file.path.split('/').pop() ?? file.path;
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} …` : names.join(', ');
}

/**
 * Exact dependents: imports naming the target, files whose resolved imports reach the file declaring it,
 * and code linked to a contract named like it.
 */
function exactDependents(snapshot: SnapshotReader, target: string, languages: Languages): Dependent[] {
  const out: Dependent[] = [];
  const lower = target.toLowerCase();
  const byRawImport = new Set<IndexedFile>();
  for (const file of snapshot.files) {
    for (const imp of file.facts.imports) {
      const source = imp.source;
      const byPackage =
        source === target || source.startsWith(`${target}/`) || source.startsWith(`${target}.`);
      const byName = imp.names?.some((n) => n === target) ?? false;
      const byLastSegment = lastSegment(source) === target && !source.startsWith('.');
      if (byPackage || byName || byLastSegment) {
        out.push({
          root: file.root,
          file: file.path,
          line: imp.line,
          element: topLevelNames(file),
          via: `import ${source}`,
          service: snapshot.serviceOf(file.root),
        });
        byRawImport.add(file);
        break;
      }
    }
  }
  out.push(...resolvedImportDependents(snapshot, target, byRawImport, languages));
  const graph = snapshot.contractGraph();
  const matched = graph.nodes.filter((node) => contractMatches(node, target, lower));
  // Depending on a service includes implementing or calling any of its methods.
  const services = new Set(matched.filter((n) => n.kind === 'grpc_service').map((n) => `${n.name}/`));
  const contracts =
    services.size === 0
      ? matched
      : [
          ...matched,
          ...graph
            .nodesOfKind('grpc_method')
            .filter((n) => !matched.includes(n) && services.has(`${n.name.split('/')[0]}/`)),
        ];
  for (const node of contracts) {
    for (const edge of graph.incoming(node.id)) {
      if (!CONTRACT_EDGES.has(edge.kind)) continue;
      const code = graph.node(edge.from);
      out.push({
        root: edge.root,
        file: edge.file,
        line: edge.line,
        element: code.name,
        via: `${edge.kind} ${node.name}`,
        service: snapshot.serviceOf(edge.root),
      });
    }
  }
  return out;
}

/** `src/orders/order.model.ts` → `src/orders/order.model` (`.d.ts` counts as one extension). */
const withoutExtension = (path: string): string => path.replace(/(?:\.d)?\.[^./]+$/, '');

/**
 * Files whose resolved imports (`imports` edges) point at a file declaring the target at top level, or at
 * the module the target names (`order.model`, `shipping.models`). A named import that takes other names
 * from the declaring file is not a dependency on the target; one naming it is already an exact import match.
 */
function resolvedImportDependents(
  snapshot: SnapshotReader,
  target: string,
  skip: ReadonlySet<IndexedFile>,
  languages: Languages,
): Dependent[] {
  const graph = snapshot.contractGraph();
  if (graph.nodesOfKind('module').length === 0) return [];
  const out: Dependent[] = [];
  const seen = new Set<IndexedFile>();
  for (const file of snapshot.files) {
    const stem = withoutExtension(file.path);
    const spec = languages(file.language);
    const dotted = spec?.moduleName?.(stem);
    const byModule =
      stem === target ||
      stem.endsWith(`/${target}`) ||
      (dotted !== undefined && (dotted === target || dotted.endsWith(`.${target}`)));
    const declares =
      byModule ||
      file.facts.symbols.some(
        (s) =>
          s.parent === undefined &&
          s.kind !== 'heading' &&
          s.kind !== 'property' &&
          (s.name === target || s.qualifiedName === target),
      );
    if (!declares) continue;
    const dir = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '';
    // A Go file is imported through its package folder.
    const names = spec?.importedByFolder === true ? [file.path, dir === '' ? './' : `${dir}/`] : [file.path];
    const declaringStem = stem.slice(stem.lastIndexOf('/') + 1);
    for (const name of names) {
      const node = graph.nodeInRoot('module', file.root, name);
      if (!node) continue;
      for (const edge of graph.incoming(node.id)) {
        if (edge.kind !== 'imports' || edge.confidence === 'ambiguous') continue;
        const importer = snapshot.fileOf(edge);
        if (!importer || skip.has(importer) || seen.has(importer)) continue;
        if (!byModule && languages(importer.language)?.namedImports === true) {
          const takesModule = importer.facts.imports.some(
            (imp) =>
              imp.source === edge.via &&
              (!imp.names ||
                imp.names.length === 0 ||
                imp.names.some((n) => n === '*' || n === declaringStem)),
          );
          if (!takesModule) continue;
        }
        seen.add(importer);
        out.push({
          root: edge.root,
          file: edge.file,
          line: edge.line,
          element: topLevelNames(importer),
          via: `import ${edge.via}`,
          service: snapshot.serviceOf(edge.root),
        });
      }
    }
  }
  return out;
}

function contractMatches(node: GraphNode, target: string, lower: string): boolean {
  switch (node.kind) {
    case 'grpc_service':
    case 'proto_message':
      return node.name === target || (node.name.split('.').pop() ?? '').toLowerCase() === lower;
    case 'grpc_method': {
      const [service, method] = node.name.split('/');
      const bare = service?.split('.').pop() ?? '';
      return (
        node.name === target ||
        `${bare}.${method}` === target ||
        methodKey(method ?? '') === methodKey(target)
      );
    }
    case 'topic':
    case 'http_route':
      return node.name === target;
    default:
      return false;
  }
}

/** The heuristic fallback: imports whose module or names merely contain the target. */
function substringDependents(snapshot: SnapshotReader, target: string): Dependent[] {
  const lower = target.toLowerCase();
  const out: Dependent[] = [];
  for (const file of snapshot.files) {
    const imp = file.facts.imports.find(
      (i) =>
        i.source.toLowerCase().includes(lower) ||
        (i.names ?? []).some((n) => n.toLowerCase().includes(lower)),
    );
    if (imp)
      out.push({
        root: file.root,
        file: file.path,
        line: imp.line,
        element: topLevelNames(file),
        via: `import ${imp.source}`,
        service: snapshot.serviceOf(file.root),
      });
  }
  return out;
}

type Granularity = 'symbol' | 'file' | 'package';

function unitKey(d: Dependent, granularity: Granularity): string {
  if (granularity === 'package') return `${d.root}\u0000${d.service}`;
  if (granularity === 'file') return `${d.root}\u0000${d.file}`;
  return `${d.root}\u0000${d.file}\u0000${d.element}\u0000${d.via}`;
}

export const contractsDependents = defineOperation({
  domain: 'contracts',
  mode: 'dependents',
  flatName: 'find_dependents',
  title: 'Who depends on a type, package or contract',
  description:
    'Lists the code that imports a package or type, or calls, implements, produces or consumes a contract named like the target, grouped by root — one row per declaration, per file or per package — e.g. target "PaymentService" or "@shop/contracts". A zero result is authoritative. DO NOT USE to search free text or string literals (use code search with fuzzy: true, or grep).',
  args: {
    target: z
      .string()
      .min(1)
      .max(256)
      .describe('A type, contract or package, e.g. "PaymentService", "orders.created" or "@shop/contracts".'),
    granularity: z
      .enum(['symbol', 'file', 'package'])
      .default('symbol')
      .describe('One row per dependent declaration, file or (root, package), e.g. "file".'),
    include_tests: z
      .boolean()
      .default(false)
      .describe('Also list dependents in test files (otherwise counted), e.g. true.'),
    limit: z.number().int().min(1).max(200).default(50).describe('Rows per page, e.g. 20.'),
    offset: z.number().int().min(0).default(0).describe('Rows to skip, from the previous footer, e.g. 50.'),
  },
  capabilities: { requiresIndex: true, idempotent: true, paged: true },
  subject: (args) => args.target,
  truncationHint: (args) =>
    `\`${args.target}\` has many dependents: use \`granularity: "file"\` or \`"package"\`, or page with \`offset\`.`,
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    const granularity = args.granularity as Granularity;
    let found = exactDependents(snapshot, args.target, ctx.services.languages);
    let heuristic = false;
    if (found.length === 0 && args.target.length >= 3) {
      found = substringDependents(snapshot, args.target);
      heuristic = found.length > 0;
    }
    const unit =
      granularity === 'package' ? 'package(s)' : granularity === 'file' ? 'file(s)' : 'dependent(s)';
    const units = new Map<string, Dependent>();
    const testUnits = new Set<string>();
    for (const d of found.sort(
      (a, b) => cmp(a.root, b.root) || cmp(a.file, b.file) || a.line - b.line || cmp(a.element, b.element),
    )) {
      const key = unitKey(d, granularity);
      if (!args.include_tests && isTestPath(d.file)) {
        testUnits.add(key);
        continue;
      }
      if (!units.has(key)) units.set(key, d);
    }
    for (const key of units.keys()) testUnits.delete(key);
    const rows = [...units.values()];
    const files = new Set(rows.map((r) => snapshot.file(r.root, r.file))).size;
    const note = rejectedNote(snapshot, undefined, args.target);
    const render = (d: Dependent, i: number) => {
      const where = `${displayPath(snapshot.roots, d.root, d.file)}:${d.line}`;
      if (granularity === 'package')
        return `${i + 1}. \`${d.service}\` (root \`${d.root}\`) — e.g. \`${where}\` via ${d.via}\n`;
      if (granularity === 'file') return `${i + 1}. \`${where}\` — via ${d.via}\n`;
      return `${i + 1}. \`${d.element}\` — \`${where}\` via ${d.via}\n`;
    };
    const page = takePage(rows, {
      offset: args.offset,
      limit: args.limit,
      budgetBytes: ctx.pageBudget,
      render,
    });
    const lines = [`## Dependents of \`${args.target}\` (granularity: ${granularity})`, ''];
    if (heuristic)
      lines.push(
        `> Heuristic: nothing imports or links to \`${args.target}\` exactly; these imports merely contain it.`,
        '',
      );
    if (rows.length === 0) {
      lines.push(
        `Exactly 0 ${unit} of \`${args.target}\` in the indexed roots (imports, gRPC, topic and HTTP links searched${args.target.length < 3 ? '; the substring fallback needs 3+ characters' : ''}). This is authoritative; do not re-check with grep.`,
        'Next: `code search` finds where it is declared; `contracts impact` follows contract changes.',
      );
    } else {
      let lastRoot: string | undefined;
      page.items.forEach((d, i) => {
        if (d.root !== lastRoot) {
          lines.push(`### Root \`${d.root}\``);
          lastRoot = d.root;
        }
        lines.push((page.rendered[i] ?? '').trimEnd());
      });
      lines.push(
        '',
        '---',
        `${rows.length} ${unit} in ${files} file(s). ${pageFooter(page, 'rows', args.limit)}`,
      );
    }
    if (testUnits.size > 0)
      lines.push(
        `${testUnits.size} more ${unit} in test files left out (\`include_tests: true\` lists them).`,
      );
    return {
      data: {
        target: args.target,
        granularity,
        heuristic,
        total: rows.length,
        files,
        offset: page.start,
        results: page.items.map((d) => ({
          root: d.root,
          path: displayPath(snapshot.roots, d.root, d.file),
          line: d.line,
          element: d.element,
          via: d.via,
          service: d.service,
        })),
        ...(page.hasMore ? { next_offset: page.end } : {}),
        tests_left_out: testUnits.size,
        not_indexed: note.json,
      },
      markdown: `${lines.join('\n')}\n${note.markdown}`,
    };
  },
});
