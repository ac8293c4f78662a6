/**
 * Dapr declarative subscriptions: a `kind: Subscription` document (`dapr.io/v1alpha1` or `v2alpha1`)
 * subscribes the apps named in its `scopes` to `spec.topic` on `spec.pubsubname`. The file usually sits in a
 * shared components or deploy folder that no root indexes, so it is read here, with the service model, and
 * each subscription is handed to the roots of the apps it names (by any name the root answers to).
 */
import path from 'node:path';
import type { RootFolder, RootIdentity, DeclaredTopic } from './types.js';
import { joinRel, type WorkspaceFiles } from './workspace-files.js';
import { get, items, parseYaml, str } from './yaml-tree.js';

interface Subscription {
  readonly topic: string;
  readonly apps: readonly string[];
  readonly file: string;
  readonly line: number;
}

const YAML = /\.ya?ml$/i;

function readSubscriptions(workspace: WorkspaceFiles): Subscription[] {
  const out: Subscription[] = [];
  for (const [folder, names] of workspace.folders)
    for (const name of names) {
      if (!YAML.test(name)) continue;
      const file = joinRel(folder, name);
      const text = workspace.read(file);
      if (text === undefined || !/^kind:\s*Subscription\s*$/m.test(text)) continue;
      for (const doc of parseYaml(text)) {
        const apiVersion = str(doc, get(doc, doc.root, 'apiVersion')) ?? '';
        if (str(doc, get(doc, doc.root, 'kind')) !== 'Subscription' || !apiVersion.startsWith('dapr.io/'))
          continue;
        const topicNode = get(doc, get(doc, doc.root, 'spec'), 'topic');
        const topic = str(doc, topicNode);
        const apps = items(doc, get(doc, doc.root, 'scopes'))
          .map((item) => str(doc, item))
          .filter((app): app is string => app !== undefined && app !== '');
        if (topic && apps.length > 0) out.push({ topic, apps, file, line: doc.line(topicNode) });
      }
    }
  return out;
}

/**
 * Each root's declared subscriptions: a subscription goes to every root answering to one of its `scopes`,
 * its file written relative to that root (it may lie outside it: `../resources/subscription.yaml`).
 */
export function declaredSubscriptions(
  workspace: WorkspaceFiles,
  identities: ReadonlyMap<string, RootIdentity>,
  folders: readonly RootFolder[],
): Map<string, DeclaredTopic[]> {
  const byRoot = new Map<string, DeclaredTopic[]>();
  const subscriptions = readSubscriptions(workspace);
  if (subscriptions.length === 0) return byRoot;
  const folderOf = new Map(folders.map((f) => [f.name, f.folder]));
  for (const subscription of subscriptions) {
    const wanted = new Set(subscription.apps.map((app) => app.toLowerCase()));
    for (const [root, identity] of identities) {
      const folder = folderOf.get(root);
      if (folder === undefined || !identity.names.some((name) => wanted.has(name.toLowerCase()))) continue;
      const list = byRoot.get(root) ?? byRoot.set(root, []).get(root);
      list?.push({
        role: 'consumer',
        topic: subscription.topic,
        broker: 'dapr',
        file: path.posix.relative(folder === '.' ? '' : folder, subscription.file),
        line: subscription.line,
        via: 'Dapr Subscription scopes',
      });
    }
  }
  return byRoot;
}
