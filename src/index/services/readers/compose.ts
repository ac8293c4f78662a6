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
import type { ServiceEnvVar, ServiceName } from '../types.js';
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

function readOne(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  const dotenv = workspace.read(joinRel(file.folder, '.env'));
  const vars = dotenv ? envFileVariables(dotenv) : new Map<string, string>();
  const out: Finding[] = [];
  for (const doc of parseYaml(file.text)) {
    const ctx: Context = { file, doc, vars, workspace };
    for (const service of pairsOf(doc, get(doc, doc.root, 'services')))
      out.push(readService(ctx, service.key, service.keyNode, service.value, out));
  }
  return out;
}

export const composeReader: ManifestReader = {
  id: 'compose',
  matches: (name) => COMPOSE_FILE.test(name),
  read: (files, workspace) => files.flatMap((file) => readOne(file, workspace)),
};
