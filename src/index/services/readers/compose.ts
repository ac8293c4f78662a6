/**
 * Docker Compose files (`docker-compose*.yml`, `compose*.yml`): each service is a deployment. `build:` (a
 * context, or `context` + `dockerfile`) says which folder it is built from; its names are the service key,
 * `container_name`, `hostname`, network `aliases` and `links` aliases; its environment is `environment:`
 * (list or map) and `env_file:`, interpolated with the `.env` file beside the compose file as compose does.
 * A Dapr sidecar's `--app-id` names the service whose network it shares.
 */

import { envFileVariables, interpolate, looksSecret, parseEnvFile } from '../env-file.js';
import {
  learnt,
  type DeploymentFinding,
  type Finding,
  type ManifestReader,
  type ReadFile,
} from '../finding.js';
import { kindOfImage } from '../kind-signatures.js';
import type { Learnt, ServiceEnvVar, ServiceName } from '../types.js';
import { baseName, joinRel, normalizeRel, parentOf, type WorkspaceFiles } from '../workspace-files.js';
import { get, items, pairsOf, parseYaml, str, strings, type YamlDocument, type Node } from '../yaml-tree.js';

const COMPOSE_FILE = /^(docker-)?compose([.-][\w.-]+)?\.ya?ml$/;

interface Context {
  readonly file: ReadFile;
  readonly doc: YamlDocument;
  readonly vars: ReadonlyMap<string, string>;
  readonly workspace: WorkspaceFiles;
}

const at = (ctx: Context, node: Node | null | undefined, how: string) =>
  learnt(ctx.file.path, ctx.doc.line(node), how);
const text = (ctx: Context, node: Node | null | undefined): string | undefined => {
  const value = str(ctx.doc, node);
  return value === undefined ? undefined : interpolate(value, ctx.vars);
};

/** The folder a `build:` builds from: the Dockerfile's folder when it names one that exists, else the context. */
function buildFolder(ctx: Context, build: Node | null): string | undefined {
  if (!build) return undefined;
  const contextText = text(ctx, build) ?? text(ctx, get(ctx.doc, build, 'context')) ?? '.';
  if (/^[a-z]+:\/\//i.test(contextText) || contextText.includes('${')) return undefined;
  const context = normalizeRel(joinRel(ctx.file.folder, contextText));
  if (context === undefined) return undefined;
  const dockerfile = text(ctx, get(ctx.doc, build, 'dockerfile'));
  if (dockerfile && !dockerfile.includes('${')) {
    const folder = normalizeRel(parentOf(joinRel(context, dockerfile)));
    if (folder !== undefined && ctx.workspace.has(folder)) return folder;
  }
  return context;
}

function environment(ctx: Context, service: Node | null): ServiceEnvVar[] {
  const out: ServiceEnvVar[] = [];
  const push = (name: string, value: string | undefined, node: Node | null, how: string) => {
    if (value !== undefined && !looksSecret(name)) out.push({ name, value, from: at(ctx, node, how) });
  };
  const env = get(ctx.doc, service, 'environment');
  for (const item of items(ctx.doc, env)) {
    const entry = text(ctx, item) ?? '';
    const eq = entry.indexOf('=');
    // `- NAME` alone passes the variable through from the project environment (the `.env` file).
    if (eq < 0) push(entry, ctx.vars.get(entry), item, 'compose environment');
    else push(entry.slice(0, eq), entry.slice(eq + 1), item, 'compose environment');
  }
  for (const pair of pairsOf(ctx.doc, env))
    push(pair.key, text(ctx, pair.value) ?? ctx.vars.get(pair.key), pair.keyNode, 'compose environment');
  const envFiles = get(ctx.doc, service, 'env_file');
  const paths = [
    ...strings(ctx.doc, envFiles),
    ...items(ctx.doc, envFiles).map((i) => text(ctx, get(ctx.doc, i, 'path'))),
  ];
  for (const relative of paths) {
    const file = relative && normalizeRel(joinRel(ctx.file.folder, interpolate(relative, ctx.vars)));
    const content = file ? ctx.workspace.read(file) : undefined;
    if (file && content)
      for (const line of parseEnvFile(content))
        out.push({
          name: line.name,
          value: interpolate(line.value, ctx.vars),
          from: learnt(file, line.line, 'compose env_file'),
        });
  }
  return out;
}

function names(ctx: Context, key: string, keyNode: Node | null, service: Node | null): ServiceName[] {
  const out: ServiceName[] = [{ name: key, from: at(ctx, keyNode, 'compose service') }];
  for (const field of ['container_name', 'hostname'] as const) {
    const node = get(ctx.doc, service, field);
    const value = text(ctx, node);
    if (value) out.push({ name: value, from: at(ctx, node, `compose ${field}`) });
  }
  for (const network of pairsOf(ctx.doc, get(ctx.doc, service, 'networks')))
    for (const alias of items(ctx.doc, get(ctx.doc, network.value, 'aliases'))) {
      const value = text(ctx, alias);
      if (value) out.push({ name: value, from: at(ctx, alias, 'compose network alias') });
    }
  return out;
}

/** The words of `command:` / `entrypoint:` (a string is split on spaces, as compose does). */
function commandWords(ctx: Context, service: Node | null): { words: string[]; node: Node | null } {
  for (const field of ['command', 'entrypoint']) {
    const node = get(ctx.doc, service, field);
    const single = text(ctx, node);
    const words =
      single !== undefined ? single.split(/\s+/) : items(ctx.doc, node).map((i) => text(ctx, i) ?? '');
    if (words.length > 0 && words[0]) return { words, node };
  }
  return { words: [], node: null };
}

function readService(
  ctx: Context,
  key: string,
  keyNode: Node | null,
  service: Node | null,
  extra: Finding[],
): DeploymentFinding {
  const folder = buildFolder(ctx, get(ctx.doc, service, 'build'));
  const image = text(ctx, get(ctx.doc, service, 'image'));
  const kind = image ? kindOfImage(image) : undefined;
  const { words, node: commandNode } = commandWords(ctx, service);
  const serviceNames = names(ctx, key, keyNode, service);
  const appId = words.findIndex((w) => /^--?app-id$/.test(w));
  const network = text(ctx, get(ctx.doc, service, 'network_mode'));
  const sidecarOf = network?.startsWith('service:') ? network.slice('service:'.length) : undefined;
  const dapr = appId >= 0 ? words[appId + 1] : undefined;
  if (dapr && !sidecarOf) serviceNames.push({ name: dapr, from: at(ctx, commandNode, 'Dapr app id') });
  if (folder !== undefined)
    extra.push({
      type: 'unit',
      folder,
      role: 'built',
      from: at(ctx, get(ctx.doc, service, 'build'), 'compose build'),
    });
  if (image && folder)
    extra.push({
      type: 'image',
      image,
      folder,
      from: at(ctx, get(ctx.doc, service, 'image'), 'compose build + image'),
    });
  for (const link of items(ctx.doc, get(ctx.doc, service, 'links'))) {
    const [target, alias] = (text(ctx, link) ?? '').split(':');
    if (target && alias)
      extra.push(aliasOf(ctx, target, { name: alias, from: at(ctx, link, 'compose links alias') }));
  }
  if (dapr && sidecarOf)
    extra.push(aliasOf(ctx, sidecarOf, { name: dapr, from: at(ctx, commandNode, 'Dapr app id') }));
  const first = words[0] ? baseName(words[0]) : undefined;
  return {
    type: 'deployment',
    key: `compose:${ctx.file.path}#${key}`,
    ...(folder !== undefined ? { folder } : {}),
    images: image ? [image] : [],
    names: serviceNames,
    env: environment(ctx, service),
    kinds: kind ? [kind.kind] : [],
    ...(first && appId < 0 ? { command: first } : {}),
    from: at(ctx, keyNode, 'compose service'),
  };
}

/** A name for another compose service of the same file (a link alias, a Dapr sidecar's app id). */
function aliasOf(ctx: Context, service: string, name: ServiceName): DeploymentFinding {
  return {
    type: 'deployment',
    key: `compose:${ctx.file.path}#${service}`,
    images: [],
    names: [name],
    env: [],
    kinds: [],
    from: name.from,
    alias: true,
  };
}

/** The deepest folder holding every path in `paths` (workspace-relative). */
function commonFolder(paths: readonly string[]): string | undefined {
  if (paths.length === 0) return undefined;
  let common = (paths[0] as string).split('/');
  for (const p of paths.slice(1)) {
    const parts = p.split('/');
    let i = 0;
    while (i < common.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return common.length === 0 ? '.' : common.join('/');
}

/**
 * The repository folder a service without `build:` brings in through bind mounts (`./nginx/conf:/etc/…`):
 * a proxy or web server whose config and scripts live here runs them from an upstream image.
 */
function mountFolder(ctx: Context, service: Node | null): string | undefined {
  const sources = items(ctx.doc, get(ctx.doc, service, 'volumes'))
    .map((item) => text(ctx, item) ?? text(ctx, get(ctx.doc, item, 'source')) ?? '')
    .map((entry) => entry.split(':')[0] ?? '')
    .filter((source) => source.startsWith('./') || source.startsWith('../'))
    .map((source) => normalizeRel(joinRel(ctx.file.folder, source)))
    .filter((rel): rel is string => rel !== undefined)
    .map((rel) => (ctx.workspace.has(rel) ? rel : parentOf(rel)));
  // Mounts also bring shared pieces (generated code, a library): the folder most of them come from wins.
  const top = (rel: string) =>
    rel.slice(ctx.file.folder === '.' ? 0 : ctx.file.folder.length + 1).split('/')[0];
  const counts = new Map<string, number>();
  for (const rel of sources) counts.set(top(rel) ?? '', (counts.get(top(rel) ?? '') ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0 || (ranked.length > 1 && ranked[0]?.[1] === ranked[1]?.[1])) return undefined;
  return commonFolder(sources.filter((rel) => top(rel) === ranked[0]?.[0]));
}

/**
 * Whether a mounted folder configures a web server (an nginx/OpenResty `server` or `location` block): its
 * routes and scripts are the service. A mounted Grafana or OpenSearch config is not a service of the repo.
 */
function servesWithConfig(workspace: WorkspaceFiles, folder: string): boolean {
  const folders = [folder, ...(workspace.children.get(folder) ?? []).map((name) => joinRel(folder, name))];
  return folders.some((dir) =>
    workspace
      .filesOf(dir)
      .filter((name) => /\.conf(\.template)?$/.test(name))
      .some((name) => /^\s*(server|location)\b[^;{]*\{/m.test(workspace.read(joinRel(dir, name)) ?? '')),
  );
}

interface ServiceRead {
  readonly name: string;
  readonly file: string;
  deployment: DeploymentFinding;
  /** The folder it mounts, when it has no `build:`, and where the mounts are written. */
  readonly mount?: { readonly folder: string; readonly from: Learnt };
}

function readOne(file: ReadFile, workspace: WorkspaceFiles, out: Finding[]): ServiceRead[] {
  const dotenv = workspace.read(joinRel(file.folder, '.env'));
  const vars = dotenv ? envFileVariables(dotenv) : new Map<string, string>();
  const reads: ServiceRead[] = [];
  for (const doc of parseYaml(file.text)) {
    const ctx: Context = { file, doc, vars, workspace };
    for (const service of pairsOf(doc, get(doc, doc.root, 'services'))) {
      const deployment = readService(ctx, service.key, service.keyNode, service.value, out);
      const folder = deployment.folder === undefined ? mountFolder(ctx, service.value) : undefined;
      const usable =
        folder !== undefined &&
        folder !== file.folder &&
        workspace.has(folder) &&
        servesWithConfig(workspace, folder);
      const from = at(ctx, get(ctx.doc, service.value, 'volumes'), 'compose bind mount');
      reads.push({
        name: service.key,
        file: file.path,
        deployment,
        ...(usable ? { mount: { folder, from } } : {}),
      });
    }
  }
  return reads;
}

/**
 * A service with no `build:` is given the folder it alone mounts: a folder several services of one compose
 * file mount (a shared `config/`) says nothing about which service it belongs to.
 */
function assignMountFolders(reads: readonly ServiceRead[], out: Finding[]): void {
  // Shared when one compose file has two services mounting it (variants of a file rename services).
  const mounters = new Map<string, Set<string>>();
  for (const read of reads)
    if (read.mount) {
      const key = `${read.file}\0${read.mount.folder}`;
      mounters.set(key, (mounters.get(key) ?? new Set()).add(read.name));
    }
  const shared = new Set(
    [...mounters].filter(([, names]) => names.size > 1).map(([key]) => key.slice(key.indexOf('\0') + 1)),
  );
  for (const read of reads) {
    if (!read.mount || shared.has(read.mount.folder)) continue;
    const { folder, from } = read.mount;
    // Config a running service reads is that service's, even with no code of its own (nginx + Lua).
    out.push({ type: 'unit', folder, role: 'built', from }, { type: 'kind', folder, kind: 'service', from });
    read.deployment = { ...read.deployment, folder };
  }
}

function readAll(files: readonly ReadFile[], workspace: WorkspaceFiles): Finding[] {
  const out: Finding[] = [];
  const reads = files.flatMap((file) => readOne(file, workspace, out));
  assignMountFolders(reads, out);
  return [...out, ...reads.map((r) => r.deployment)];
}

export const composeReader: ManifestReader = {
  id: 'compose',
  matches: (name) => COMPOSE_FILE.test(name),
  read: readAll,
};
