/** `package.json`: a package (its `name`), an entry point (`scripts.start`), and npm/yarn/pnpm `workspaces`. */
import { expandFolders } from '../folder-glob.js';
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { kindsFromDependencies } from '../kind-signatures.js';
import { lineOf } from '../text-match.js';
import type { WorkspaceFiles } from '../workspace-files.js';

interface PackageJson {
  readonly name?: unknown;
  readonly workspaces?: unknown;
  readonly scripts?: { readonly start?: unknown };
  readonly private?: unknown;
  readonly main?: unknown;
}

function workspaceGlobs(value: unknown): string[] {
  const list = Array.isArray(value) ? value : (value as { packages?: unknown } | undefined)?.packages;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}

function readOne(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  let json: PackageJson;
  try {
    json = JSON.parse(file.text) as PackageJson;
  } catch {
    return [];
  }
  if (typeof json !== 'object' || json === null) return [];
  const out: Finding[] = [];
  const globs = workspaceGlobs(json.workspaces);
  if (globs.length > 0) {
    const at = learnt(file.path, lineOf(file.text, '"workspaces"'), 'package.json workspaces');
    out.push({ type: 'aggregator', folder: file.folder, from: at });
    for (const glob of globs)
      for (const folder of expandFolders(workspace, file.folder, glob))
        if (workspace.filesOf(folder).includes('package.json'))
          out.push({ type: 'unit', folder, role: 'member', from: at });
  }
  // `@shop/order-gateway` → `order-gateway`: the scope names the organisation, not the service.
  const name = typeof json.name === 'string' && json.name ? json.name.replace(/^@[^/]+\//, '') : undefined;
  const line = name ? lineOf(file.text, '"name"') : 1;
  out.push({
    type: 'unit',
    folder: file.folder,
    role: 'manifest',
    from: learnt(file.path, line, 'package.json'),
    ...(name ? { name } : {}),
  });
  if (typeof json.scripts?.start === 'string' && !BROWSER_DEV_SERVER.test(json.scripts.start))
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'deployable',
      from: learnt(file.path, lineOf(file.text, '"start"'), 'package.json start script'),
    });
  else if (json.private === true && typeof json.main === 'string' && json.main !== '')
    // A private package is never published: its `main` is a program to run, not a library's entry.
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'deployable',
      from: learnt(file.path, lineOf(file.text, '"main"'), 'private package main'),
    });
  out.push(...kindsFromDependencies(file.folder, file.path, file.text));
  return out;
}

/**
 * A `start` script that serves a browser bundle while it is developed (`react-scripts start`, `vite`,
 * `ng serve`): the package is a web client built into static files, not a program deployed on its own.
 */
const BROWSER_DEV_SERVER =
  /^\s*(?:[\w=]+\s+)*(?:react-scripts|react-app-rewired|craco|vite|ng|vue-cli-service|parcel|webpack(?:-dev-server)?)(?:\s+(?:start|serve|dev)\b|\s*$|\s+--)/;

export const nodePackageReader: ManifestReader = {
  id: 'package.json',
  matches: (name) => name === 'package.json',
  read: (files, workspace) => files.flatMap((file) => readOne(file, workspace)),
};
