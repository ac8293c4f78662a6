/**
 * Who depends on a target: imports naming it, files whose resolved imports reach its declaration, code linked
 * to a contract named like it, and, as a fallback, imports that merely contain it.
 */
import { readFileSync } from 'node:fs';
import type { GraphEdge, IndexedFile, SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { escapeRegExp } from '../../core/regexp.js';
import { isGeneratedPath } from '../shared/generated-code.js';
import { lastSegment } from '../shared/import-source.js';
import { contractsNamed } from './contract-match.js';
import { dependentsIndex, withoutExtension } from './dependents-index.js';

type Languages = MeshServices['languages'];

export interface Dependent {
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
  const byRawImport = new Set<IndexedFile>();
  for (const file of dependentsIndex(snapshot, languages).filesImporting(snapshot, target)) {
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
  const matched = contractsNamed(graph, target);
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
  const links = contracts.flatMap((node) =>
    graph
      .incoming(node.id)
      .filter((edge) => CONTRACT_EDGES.has(edge.kind))
      .map((edge) => ({ node, edge })),
  );
  // One call can name a service and its method (`NewPaymentServiceClient(conn).Charge(…)`): two edges from
  // one site. The method says more; the service edge of that site is the same dependency again.
  const site = (edge: GraphEdge, service: string) =>
    [edge.root, edge.file, edge.line, edge.from, edge.kind, service].join('\0');
  const methodSites = new Set(
    links
      .filter(({ node }) => node.kind === 'grpc_method')
      .map(({ node, edge }) => site(edge, node.name.split('/')[0] ?? '')),
  );
  for (const { node, edge } of links) {
    if (node.kind === 'grpc_service' && methodSites.has(site(edge, node.name))) continue;
    out.push({
      root: edge.root,
      file: edge.file,
      line: edge.line,
      element: graph.node(edge.from).name,
      via: `${edge.kind} ${node.name}`,
      service: snapshot.serviceOf(edge.root),
    });
  }
  return out;
}

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
  for (const file of dependentsIndex(snapshot, languages).filesDeclaring(snapshot, target)) {
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
    // A generated module holds every service of its proto: importing it is a dependency on the one used.
    const generated = isGeneratedPath(file.path);
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
        if (!byModule && generated && !mentions(importer, target)) continue;
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

/** Whether a file's text names the target as a word or a word's start (`PaymentService`, `PaymentServiceStub`). */
function mentions(file: IndexedFile, target: string): boolean {
  let text: string;
  try {
    text = readFileSync(file.absolutePath, 'utf8');
  } catch {
    return true; // unreadable now: keep the import as the evidence it was
  }
  return new RegExp(`(^|[^\\w])${escapeRegExp(target)}`).test(text);
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

/** Exact dependents, else (for 3+ characters) imports that merely contain the target, marked heuristic. */
export function collectDependents(
  snapshot: SnapshotReader,
  target: string,
  languages: Languages,
): { found: Dependent[]; heuristic: boolean } {
  const found = exactDependents(snapshot, target, languages);
  if (found.length > 0 || target.length < 3) return { found, heuristic: false };
  const contained = substringDependents(snapshot, target);
  return { found: contained, heuristic: contained.length > 0 };
}
