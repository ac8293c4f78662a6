/**
 * One service-model entry per unit: its kind, every name it answers to (manifest names first, then the
 * names its deployments and its own config give, then its folder name), its merged environment and the
 * evidence that makes it a unit.
 */
import type { DeploymentFinding, Finding, KindFinding } from './finding.js';
import type { SourceFolders } from './source-folders.js';
import type { Learnt, ServiceEntry, ServiceEnvVar, ServiceKind, ServiceName } from './types.js';
import { isDeployable, type Unit } from './units.js';
import { baseName, within } from './workspace-files.js';

const compareLearnt = (a: Learnt, b: Learnt): number =>
  a.file < b.file
    ? -1
    : a.file > b.file
      ? 1
      : a.line - b.line || (a.how < b.how ? -1 : a.how > b.how ? 1 : 0);

/** The unit a folder-level finding belongs to: the deepest unit holding its folder. */
export function owningUnit(folder: string, units: readonly Unit[]): Unit | undefined {
  let best: Unit | undefined;
  for (const unit of units)
    if (within(folder, unit.folder) && (!best || unit.folder.length > best.folder.length)) best = unit;
  return best;
}

function uniqueNames(names: readonly ServiceName[]): ServiceName[] {
  const seen = new Set<string>();
  return names.filter((n) => {
    const key = n.name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function uniqueEnv(env: readonly ServiceEnvVar[]): ServiceEnvVar[] {
  const seen = new Set<string>();
  return env.filter((v) => (seen.has(v.name) ? false : (seen.add(v.name), true)));
}

/**
 * Gateway and load generator by their hints; a folder a deploy manifest runs is a service even without
 * code (an nginx or Kafka image built there); a bare Dockerfile with no code is a deploy folder; a manifest
 * with no way to run is a library.
 */
/** A test suite's folder: `test/…`, `tests/…`, `e2e`, `integration-tests`, `*-e2e`, `*-tests`. */
const TEST_FOLDER = /(^|\/)(tests?|e2e|integration[-_]?tests?)(\/|$)|[-_](e2e|tests?)$/i;

function kindOf(
  unit: Unit,
  hints: readonly KindFinding['kind'][],
  deployed: boolean,
  source: SourceFolders,
): ServiceKind {
  if (hints.includes('gateway')) return 'gateway';
  if (hints.includes('loadgen')) return 'loadgen';
  if (hints.includes('app')) return 'app';
  if (TEST_FOLDER.test(unit.folder)) return 'tests';
  // An image built from no code of the repository's own (a tuned Kafka or OpenSearch) is infrastructure,
  // unless it is a web server serving its own config.
  if (!source.holdsSource(unit.folder)) return hints.includes('service') ? 'service' : 'deploy';
  if (deployed || unit.roles.has('built')) return 'service';
  return isDeployable(unit) ? 'service' : 'library';
}

export interface EntryInputs {
  readonly units: ReadonlyMap<string, Unit>;
  readonly findings: readonly Finding[];
  readonly matched: ReadonlyMap<DeploymentFinding, Unit | undefined>;
  readonly source: SourceFolders;
}

export function unitEntries({ units, findings, matched, source }: EntryInputs): ServiceEntry[] {
  const all = [...units.values()];
  const owner = new Map<string, Unit | undefined>();
  const ownerOf = (folder: string) => {
    if (!owner.has(folder)) owner.set(folder, owningUnit(folder, all));
    return owner.get(folder);
  };
  // A folder whose deployments all run programs inside it (compose `build: .` with `command: frontend`, one
  // image for many CMake targets) is the shared code and build context of those programs, not a service.
  const deployedUnits = new Set([...matched.values()].filter((u): u is Unit => u !== undefined));
  const buildsOthers = (unit: Unit, deployed: boolean): boolean =>
    !deployed && [...deployedUnits].some((u) => u !== unit && within(u.folder, unit.folder));
  const entries: ServiceEntry[] = [];
  for (const unit of all.sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0))) {
    const deployments = [...matched].filter(([, u]) => u === unit).map(([d]) => d);
    const kinds = findings.filter(
      (f): f is KindFinding => f.type === 'kind' && f.kind !== 'deploy' && ownerOf(f.folder) === unit,
    );
    const configNames = findings
      .flatMap((f) => (f.type === 'name' && ownerOf(f.folder) === unit ? [f.name] : []))
      .sort((a, b) => compareLearnt(a.from, b.from));
    const names = uniqueNames([
      ...unit.manifestNames,
      ...deployments.flatMap((d) => d.names),
      ...configNames,
      { name: baseName(unit.folder), from: { file: unit.folder, line: 0, how: 'folder name' } },
    ]);
    const hints = [...kinds.map((k) => k.kind), ...deployments.flatMap((d) => d.kinds)];
    // The folder's own files first (its Dockerfile, its manifest), then what other files say about it.
    const own = (l: Learnt) => (within(l.file, unit.folder) ? 0 : 1);
    const evidence = [...unit.evidence, ...kinds.map((k) => k.from)].sort(
      (a, b) => own(a) - own(b) || compareLearnt(a, b),
    );
    entries.push({
      folder: unit.folder,
      kind: buildsOthers(unit, deployments.length > 0)
        ? 'library'
        : kindOf(unit, hints, deployments.length > 0, source),
      names: unit.folder === '.' ? names.filter((n) => n.from.how !== 'folder name') : names,
      // What the deploy manifests set first; then what the image itself sets (its entry point).
      env: uniqueEnv([
        ...deployments.flatMap((d) => d.env),
        ...findings.flatMap((f) => (f.type === 'env' && ownerOf(f.folder) === unit ? [f.env] : [])),
      ]),
      evidence: evidence.filter((e, i) => i === 0 || compareLearnt(e, evidence[i - 1] as Learnt) !== 0),
    });
  }
  return entries;
}
