/**
 * Matching deployments (compose services, Kubernetes workloads, Helm values, Dapr apps) to units. A
 * deployment that says where its code is (a compose `build:`) goes there — to the `cmd/<name>` binary its
 * `command:` runs when the folder holds several; otherwise its image is looked up among images built from
 * a folder (skaffold, compose `build:` + `image:`), and last its names and image name are compared with
 * the units' folder and manifest names. Only a unique match counts: a tie matches nothing.
 */
import type { DeploymentFinding, Finding, ImageFinding } from './finding.js';
import { imageBaseName } from './kind-signatures.js';
import type { Unit } from './units.js';
import { baseName, within } from './workspace-files.js';

/** Deployments with the same key merged (aliases add names), sorted by key. */
export function mergedDeployments(findings: readonly Finding[]): DeploymentFinding[] {
  const byKey = new Map<string, DeploymentFinding>();
  const aliases: DeploymentFinding[] = [];
  for (const finding of findings) {
    if (finding.type !== 'deployment') continue;
    if (finding.alias) aliases.push(finding);
    else if (!byKey.has(finding.key)) byKey.set(finding.key, finding);
  }
  for (const alias of aliases) {
    const target = byKey.get(alias.key);
    if (target) byKey.set(alias.key, { ...target, names: [...target.names, ...alias.names] });
  }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const squash = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const tokens = (name: string): string[] =>
  name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
const endsWith = (whole: readonly string[], tail: readonly string[]): boolean =>
  tail.length > 0 &&
  tail.length <= whole.length &&
  tail.every((t, i) => whole[whole.length - tail.length + i] === t);

function unique<T>(list: readonly T[]): T | undefined {
  return list.length === 1 ? list[0] : undefined;
}

function byNames(deployment: DeploymentFinding, units: readonly Unit[]): Unit | undefined {
  const keys = [...deployment.names.map((n) => n.name), ...deployment.images.map(imageBaseName)].filter(
    Boolean,
  );
  const unitKeys = (unit: Unit) => [baseName(unit.folder), ...unit.manifestNames.map((n) => n.name)];
  const exact = units.filter((unit) => unitKeys(unit).some((u) => keys.some((k) => squash(u) === squash(k))));
  if (exact.length > 0) return unique(exact);
  // `teastore-persistence` or `persistence` names `tools.descartes.teastore.persistence`.
  return unique(units.filter((unit) => keys.some((k) => endsWith(tokens(baseName(unit.folder)), tokens(k)))));
}

function byFolder(
  deployment: DeploymentFinding,
  folder: string,
  units: ReadonlyMap<string, Unit>,
): Unit | undefined {
  const inside = [...units.values()].filter((u) => within(u.folder, folder));
  const command = deployment.command;
  const run = command
    ? inside.filter((u) => baseName(u.folder) === command || u.manifestNames.some((n) => n.name === command))
    : [];
  if (run.length === 1) return run[0];
  const exact = units.get(folder);
  if (exact) return exact;
  // The nearest unit holding the build folder.
  return [...units.values()]
    .filter((u) => within(folder, u.folder))
    .sort((a, b) => b.folder.length - a.folder.length)[0];
}

/** Each deployment's unit (by folder), or undefined when none matches. */
export function matchDeployments(
  deployments: readonly DeploymentFinding[],
  units: ReadonlyMap<string, Unit>,
  findings: readonly Finding[],
): Map<DeploymentFinding, Unit | undefined> {
  const images = new Map<string, string>();
  const imageNames = new Map<string, string[]>();
  for (const image of findings.filter((f): f is ImageFinding => f.type === 'image')) {
    if (!images.has(image.image)) images.set(image.image, image.folder);
    const list = imageNames.get(imageBaseName(image.image)) ?? [];
    if (!list.includes(image.folder)) list.push(image.folder);
    imageNames.set(imageBaseName(image.image), list);
  }
  const all = [...units.values()];
  const out = new Map<DeploymentFinding, Unit | undefined>();
  for (const deployment of deployments) {
    if (deployment.folder !== undefined) {
      out.set(deployment, byFolder(deployment, deployment.folder, units));
      continue;
    }
    const built = deployment.images
      .map((image) => images.get(image) ?? unique(imageNames.get(imageBaseName(image)) ?? []))
      .find((folder) => folder !== undefined);
    out.set(
      deployment,
      (built !== undefined ? byFolder(deployment, built, units) : undefined) ?? byNames(deployment, all),
    );
  }
  return out;
}
