import type {
  Candidate,
  ContractRow,
  GrpcAnswer,
  MethodTrace,
  Resolution,
  ServiceTrace,
} from './grpc-answer.js';
import type { ResolvedBase } from './git-show.js';
import type { WireCheck } from './wire-check.js';
import type { WireFinding } from './wire-check/findings.js';

const NOT_TRACED_LISTED = 10;
const BREAKING = 'WIRE_FORMAT_BREAKING_CHANGE';

/** Inline code that survives backticks and line breaks in scanned names. */
function code(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.includes('`') ? `\`\` ${flat} \`\`` : `\`${flat}\``;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const at = (path: string | undefined, line: number | undefined): string =>
  path === undefined ? '' : code(line !== undefined ? `${path}:${line}` : path);

function rowLine(row: ContractRow): string {
  const where = code(`${row.path}:${row.line}`);
  const who = row.symbol !== undefined ? `in ${code(row.symbol)}` : '(file level)';
  return `- ${where} ${who} — ${row.confidence}, via ${code(row.via)}, root ${code(row.root)}`;
}

function rowSection(title: string, rows: readonly ContractRow[], zero: string, lead = ''): string[] {
  if (rows.length === 0) return [`**${title}**: ${zero}`];
  return [`**${title} (${rows.length})**${lead}`, ...rows.map((r) => rowLine(r))];
}

function mayCallSection(service: ServiceTrace): string[] {
  const lead = `: service-level clients of ${code(service.name)}; which methods they call was not traced, so this list is possibly incomplete.`;
  const lines =
    service.mayCall.length === 0
      ? [`**May call**: exactly 0 service-level clients of ${code(service.name)}.`]
      : [`**May call (${service.mayCall.length})**${lead}`, ...service.mayCall.map((r) => rowLine(r))];
  if (service.mayCallExcludedFiles.length > 0) {
    lines.push(
      `_${plural(service.mayCallExcludedFiles.length, 'file')} with a service-level client left out of "May call": ` +
        `they call methods of ${code(service.name)} by name, so their calls are known method by method ` +
        `(${service.mayCallExcludedFiles.map(code).join(', ')})._`,
    );
  }
  return lines;
}

function declaration(method: MethodTrace): string {
  const where = at(method.path, method.line);
  if (method.signature) return `${code(method.signature)}${where ? ` at ${where}` : ''}`;
  return where ? `Declared at ${where}` : 'Declaration not located';
}

function methodBlock(method: MethodTrace, service: ServiceTrace, heading: string): string[] {
  const lines = [`${heading} ${code(method.name)}`, declaration(method), ''];
  const registrations = heading === '###' ? service.serviceHandlers : [];
  const zeroHandlers =
    service.serviceHandlers.length > 0
      ? `none at method level; served through the whole-service registration${heading === '###' ? ' below' : ' above'}.`
      : 'exactly 0 in the indexed roots.';
  lines.push(...rowSection('Server handlers', method.handlers, zeroHandlers), '');
  // A registration serves the service; it is where the handlers are wired, not a handler itself.
  if (registrations.length > 0)
    lines.push(...rowSection('Registers the whole service', registrations, ''), '');
  lines.push(
    ...rowSection('Clients', method.clients, 'exactly 0 method-level clients in the indexed roots.'),
    '',
  );
  if (heading === '###') lines.push(...mayCallSection(service), '');
  return lines;
}

function serviceBlock(service: ServiceTrace): string[] {
  const where = at(service.path, service.line);
  const lines = [
    `### Service ${code(service.name)}`,
    `${where ? `Declared at ${where}; ` : ''}${plural(service.methodCount, 'method')}.`,
    '',
  ];
  if (service.serviceHandlers.length > 0) {
    lines.push(
      `**Registers the whole service (${service.serviceHandlers.length})**`,
      ...service.serviceHandlers.map((r) => rowLine(r)),
      '',
    );
  }
  lines.push(...mayCallSection(service), '');
  for (const method of service.methods) lines.push(...methodBlock(method, service, '####'));
  return lines;
}

function baseLabel(base: ResolvedBase): string {
  const short = base.commit.slice(0, 12);
  if (base.how === 'merge-base') return `${code(base.ref)} (merge base ${short})`;
  return `${code(base.ref)} (${short})`;
}

function findingLine(file: string, finding: WireFinding): string {
  const label = finding.severity === 'breaking' ? `**${BREAKING}**` : 'warning';
  const where =
    finding.line === undefined
      ? code(file)
      : finding.side === 'head'
        ? code(`${file}:${finding.line}`)
        : `${code(file)} (base line ${finding.line})`;
  return `- ${label} ${code(finding.element)} at ${where}: ${finding.message}`;
}

function wireLines(check: WireCheck): string[] {
  if (check.status === 'skipped') return [`Wire check skipped for ${code(check.file)}: ${check.reason}.`];
  const heading = `### Wire-format check: ${code(check.file)}`;
  if (check.status === 'new_file') {
    return [
      heading,
      `New file, nothing to compare: ${code(check.file)} does not exist at ${baseLabel(check.base)}.`,
    ];
  }
  const breaking = check.findings.filter((f) => f.severity === 'breaking').length;
  const warnings = check.findings.length - breaking;
  const summary =
    breaking === 0
      ? `No wire-format break against ${baseLabel(check.base)}${warnings > 0 ? `; ${plural(warnings, 'warning')}:` : '.'}`
      : `${plural(breaking, 'wire-format breaking change')} against ${baseLabel(check.base)}${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}:`;
  return [heading, summary, ...check.findings.map((f) => findingLine(check.file, f))];
}

function candidateLine(candidate: Candidate): string {
  const where = at(candidate.path, candidate.line);
  const signature = candidate.signature ? ` — ${code(candidate.signature)}` : '';
  return `- ${candidate.kind} ${code(candidate.name)}${signature}${where ? ` at ${where}` : ''}`;
}

const rowJson = (row: ContractRow) => ({
  root: row.root,
  path: row.path,
  line: row.line,
  symbol: row.symbol ?? null,
  confidence: row.confidence,
  via: row.via,
  level: row.level,
});

function wireJson(check: WireCheck) {
  if (check.status === 'skipped') return { file: check.file, status: check.status, reason: check.reason };
  const base = { ref: check.base.ref, commit: check.base.commit, how: check.base.how };
  if (check.status === 'new_file') return { file: check.file, status: check.status, base };
  return {
    file: check.file,
    status: check.status,
    base,
    breaking: check.findings.filter((f) => f.severity === 'breaking').length,
    warnings: check.findings.filter((f) => f.severity === 'warning').length,
    findings: check.findings.map((f) => ({
      severity: f.severity,
      label: f.severity === 'breaking' ? BREAKING : 'warning',
      rule: f.rule,
      element: f.element,
      message: f.message,
      line: f.line ?? null,
      side: f.side,
    })),
  };
}

type Totals = { handlers: number; registrations: number; clients: number; may_call: number };
type Traced = Extract<Resolution, { kind: 'traced' }>;
type Ambiguous = Extract<Resolution, { kind: 'ambiguous' }>;

/** The answer of `contracts grpc` in Markdown and JSON, from one model so both say the same. */
export function renderGrpcAnswer(answer: GrpcAnswer): { markdown: string; data: Record<string, unknown> } {
  const res = answer.resolution;
  const totals =
    res.kind === 'traced' ? countRows(res) : { handlers: 0, registrations: 0, clients: 0, may_call: 0 };
  const lines = [`## gRPC trace for ${code(answer.proto ?? answer.target)}`];
  if (res.kind === 'none') lines.push(...noMatchLines(answer));
  else if (res.kind === 'ambiguous') lines.push(...ambiguousLines(answer, res));
  else lines.push(...tracedLines(answer, res, totals));

  for (const check of answer.wireChecks) lines.push(...wireLines(check), '');
  if (answer.wireNote) lines.push(answer.wireNote, '');
  const markdown = `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n${answer.notIndexed.markdown}`;
  return { markdown, data: answerJson(answer, totals) };
}

function countRows(res: Traced): Totals {
  const totals = { handlers: 0, registrations: 0, clients: 0, may_call: 0 };
  for (const service of res.services) {
    totals.may_call += service.mayCall.length;
    // A registration (`RegisterXServer`, `XServer::new`) serves the whole service; it handles no method.
    totals.registrations += service.serviceHandlers.length;
    for (const method of service.methods) {
      totals.handlers += method.handlers.length;
      totals.clients += method.clients.length;
    }
  }
  return totals;
}

/** An authoritative zero: says what was searched, so that nobody searches again by hand. */
function noMatchLines(answer: GrpcAnswer): string[] {
  const { services, methods, protoFiles } = answer.searched;
  return [
    `Exactly 0 gRPC services or methods match ${code(answer.target)} in the indexed roots (searched ${plural(services, 'service')} and ` +
      `${plural(methods, 'method')} declared in ${plural(protoFiles, '.proto file')}, by qualified name, by name and by substring). ` +
      'This is authoritative; do not re-check with grep.',
    `Next: \`code search\` with \`query: ${JSON.stringify(answer.target)}\` finds declarations of any kind; \`contracts dependents\` finds who uses a name.`,
  ];
}

function ambiguousLines(answer: GrpcAnswer, res: Ambiguous): string[] {
  const how =
    res.match === 'substring' ? 'by substring' : res.match === 'name' ? 'by name' : 'by qualified name';
  const lines = [
    `${code(answer.target)} matches ${plural(res.candidates.length, 'contract')} ${how}; pass a qualified name to trace one:`,
    ...res.candidates.map(candidateLine),
  ];
  const first = res.candidates[0];
  if (first) lines.push('', `Next: \`target: ${JSON.stringify(first.name)}\`.`);
  return lines;
}

function tracedLines(answer: GrpcAnswer, res: Traced, totals: Totals): string[] {
  const subject = answer.proto ?? answer.target;
  const lines: string[] = [];
  if (res.services.length === 0) {
    lines.push(
      `${code(subject)} declares no indexed gRPC service (only messages and enums, or the file is not indexed).`,
      '',
    );
  } else {
    const registered =
      totals.registrations > 0 ? `, ${plural(totals.registrations, 'service registration')}` : '';
    const counts = `${plural(totals.handlers, 'server handler')}${registered}, ${plural(totals.clients, 'method-level client')}, ${plural(totals.may_call, 'service-level client')} that may call ${res.scope === 'method' ? 'it' : 'them'}.`;
    lines.push(`_${matchedText(answer, res)} ${counts}_`, '');
  }
  for (const service of res.services) {
    if (res.scope === 'method') {
      const method = service.methods[0];
      if (method) lines.push(...methodBlock(method, service, '###'));
    } else {
      lines.push(...serviceBlock(service));
    }
  }
  if (answer.testsLeftOut > 0) {
    lines.push(
      `_${answer.testsLeftOut} more in test files left out; pass \`include_tests: true\` to list them._`,
      '',
    );
  }
  if (res.notTraced.length > 0) {
    const listed = res.notTraced.slice(0, NOT_TRACED_LISTED).map(code).join(', ');
    const more =
      res.notTraced.length > NOT_TRACED_LISTED ? ` and ${res.notTraced.length - NOT_TRACED_LISTED} more` : '';
    lines.push(
      `Not traced: ${listed}${more} — their names only contain ${code(answer.target)}; pass one as \`target\` to trace it.`,
      '',
    );
  }
  return lines;
}

/** How the target was matched, as the traced answer's summary opens. */
function matchedText(answer: GrpcAnswer, res: Traced): string {
  switch (res.match) {
    case 'qualified':
      return 'Matched by qualified name.';
    case 'package':
      return `Matched a proto package: ${plural(res.services.length, 'service')}.`;
    case 'name':
      return 'Matched by name (case- and `_`-insensitive).';
    case 'substring':
      return `No service or method is named ${code(answer.target)} exactly; matched by substring.`;
    default:
      return `${plural(res.services.length, 'service')} declared in ${code(answer.proto ?? answer.target)}.`;
  }
}

const serviceJson = (service: ServiceTrace) => ({
  name: service.name,
  path: service.path ?? null,
  line: service.line ?? null,
  method_count: service.methodCount,
  methods: service.methods.map((m) => ({
    name: m.name,
    path: m.path ?? null,
    line: m.line ?? null,
    signature: m.signature ?? null,
    handlers: m.handlers.map(rowJson),
    clients: m.clients.map(rowJson),
  })),
  service_handlers: service.serviceHandlers.map(rowJson),
  may_call: service.mayCall.map(rowJson),
  may_call_excluded_files: service.mayCallExcludedFiles,
});

function answerJson(answer: GrpcAnswer, totals: Totals): Record<string, unknown> {
  const res = answer.resolution;
  return {
    target: answer.target || null,
    proto: answer.proto ?? null,
    include_tests: answer.includeTests,
    status: res.kind,
    match: res.kind === 'none' ? null : res.match,
    scope: res.kind === 'traced' ? res.scope : null,
    services: res.kind === 'traced' ? res.services.map(serviceJson) : [],
    candidates:
      res.kind === 'ambiguous'
        ? res.candidates.map((c) => ({
            kind: c.kind,
            name: c.name,
            path: c.path ?? null,
            line: c.line ?? null,
            signature: c.signature ?? null,
          }))
        : [],
    not_traced: res.kind === 'traced' ? res.notTraced : [],
    totals,
    tests_left_out: answer.testsLeftOut,
    searched: {
      services: answer.searched.services,
      methods: answer.searched.methods,
      proto_files: answer.searched.protoFiles,
    },
    wire_checks: answer.wireChecks.map(wireJson),
    wire_note: answer.wireNote ?? null,
    not_indexed: answer.notIndexed.json,
  };
}
