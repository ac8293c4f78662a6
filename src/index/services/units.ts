/**
 * Units from unit findings: one per folder that is one buildable thing. Aggregating builds are not units
 * themselves (their members are); the workspace top is a unit only when nothing else is; a .NET solution
 * with one deployable project inside is that project's unit; a manifest-only folder nested in a deployable
 * unit (a test package, a tool) belongs to it.
 */
import type { Finding, UnitFinding, UnitRole } from './finding.js';
import type { Learnt } from './types.js';
import { within } from './workspace-files.js';

export interface Unit {
  folder: string;
  readonly roles: Set<UnitRole>;
  readonly evidence: Learnt[];
  /** Names its manifests declare, in reader order. */
  readonly manifestNames: { name: string; from: Learnt }[];
}

const isDeployable = (unit: Unit): boolean =>
  unit.roles.has('deployable') || unit.roles.has('built') || unit.roles.has('marker');

/**
 * Whether a unit nested in a deployable one stands on its own: a deploy manifest builds it, an aggregating
 * build lists it, or it is deployable under a name of its own (a `cmd/<name>` binary, a package with its own
 * Dockerfile). A bare Dockerfile or a test package inside a service is part of that service.
 */
const standsAlone = (unit: Unit): boolean =>
  unit.roles.has('built') ||
  unit.roles.has('member') ||
  (unit.roles.has('deployable') && unit.manifestNames.length > 0);

function collect(findings: readonly Finding[]): Map<string, Unit> {
  const units = new Map<string, Unit>();
  for (const finding of findings.filter((f): f is UnitFinding => f.type === 'unit')) {
    let unit = units.get(finding.folder);
    if (!unit) {
      unit = { folder: finding.folder, roles: new Set(), evidence: [], manifestNames: [] };
      units.set(finding.folder, unit);
    }
    unit.roles.add(finding.role);
    unit.evidence.push(finding.from);
    if (finding.name && !unit.manifestNames.some((n) => n.name === finding.name))
      unit.manifestNames.push({ name: finding.name, from: finding.from });
  }
  return units;
}

/** Drops units that belong to `outer` (a test project, a tool package): their folders are part of it. */
function absorb(units: Map<string, Unit>, outer: Unit, inner: readonly Unit[]): void {
  for (const unit of inner) if (unit !== outer) units.delete(unit.folder);
}

function applySolutions(units: Map<string, Unit>, findings: readonly Finding[]): void {
  for (const solution of findings.filter((f) => f.type === 'solution')) {
    const inside = [...units.values()].filter((u) => within(u.folder, solution.folder));
    const deployable = inside.filter(isDeployable);
    if (deployable.length !== 1 || !deployable[0] || units.has(solution.folder)) continue;
    const merged: Unit = {
      ...deployable[0],
      folder: solution.folder,
      evidence: [...deployable[0].evidence, solution.from],
    };
    units.delete(deployable[0].folder);
    units.set(solution.folder, merged);
    absorb(
      units,
      merged,
      inside.filter((u) => u !== deployable[0]),
    );
  }
}

export function buildUnits(findings: readonly Finding[]): Map<string, Unit> {
  const units = collect(findings);
  const aggregators = new Set(findings.flatMap((f) => (f.type === 'aggregator' ? [f.folder] : [])));
  for (const unit of [...units.values()])
    if (aggregators.has(unit.folder) && !isDeployable(unit) && !unit.roles.has('marker'))
      units.delete(unit.folder);
  applySolutions(units, findings);
  const top = units.get('.');
  if (top && units.size > 1) units.delete('.');
  // A folder inside a deployable unit is part of it unless it stands alone, or is deployable itself.
  for (const outer of [...units.values()]
    .filter(isDeployable)
    .sort((a, b) => a.folder.length - b.folder.length)) {
    if (!units.has(outer.folder)) continue;
    const nested = [...units.values()].filter(
      (u) => u !== outer && within(u.folder, outer.folder) && !standsAlone(u),
    );
    absorb(units, outer, nested);
  }
  return units;
}

export { isDeployable };
