/**
 * Spring configuration (`application*.yml|yaml|properties`, `bootstrap*.…`): the names a service registers
 * under — `spring.application.name`, a Eureka instance (`eureka.instance.appname`, `instance-id`) or a
 * Consul service (`spring.cloud.consul.discovery.service-name`, `instance-id`). `${VAR:default}` gives its
 * default. The names belong to the unit holding the file.
 */
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { allMatches } from '../text-match.js';
import { pairsOf, parseYaml, str, type Node, type YamlDocument } from '../yaml-tree.js';

const CONFIG_FILE = /^(application|bootstrap)([-.][\w-]+)?\.(ya?ml|properties)$/;

// prettier-ignore
const NAME_KEYS: readonly { readonly key: string; readonly how: string }[] = [
  { key: 'spring.application.name', how: 'spring.application.name' },
  { key: 'eureka.instance.appname', how: 'Eureka instance' },
  { key: 'eureka.instance.instance-id', how: 'Eureka instance id' },
  { key: 'eureka.instance.hostname', how: 'Eureka instance hostname' },
  { key: 'spring.cloud.consul.discovery.service-name', how: 'Consul service name' },
  { key: 'spring.cloud.consul.discovery.instance-id', how: 'Consul instance id' },
];

/** `${APP:orders}` → `orders`; a placeholder without a default (or a `${random…}` id) is no name. */
function literalName(value: string): string | undefined {
  const resolved = value.replace(/\$\{[^}:]*:([^}]*)\}/g, '$1');
  return resolved && !resolved.includes('${') && /^[\w.-]+$/.test(resolved) ? resolved : undefined;
}

/** Finds `a.b.c` in a YAML tree whichever way it is nested (`a: {b.c: x}`, `a.b: {c: x}`). */
function lookup(doc: YamlDocument, node: Node | null, path: string): Node | null {
  for (const pair of pairsOf(doc, node)) {
    if (pair.key === path) return pair.value;
    if (path.startsWith(`${pair.key}.`)) {
      const found = lookup(doc, pair.value, path.slice(pair.key.length + 1));
      if (found) return found;
    }
  }
  return null;
}

function readOne(file: ReadFile): Finding[] {
  const out: Finding[] = [];
  const push = (value: string | undefined, line: number, how: string) => {
    const name = value && literalName(value.trim());
    if (name)
      out.push({ type: 'name', folder: file.folder, name: { name, from: learnt(file.path, line, how) } });
  };
  if (file.name.endsWith('.properties')) {
    for (const { key, how } of NAME_KEYS)
      for (const hit of allMatches(
        file.text,
        new RegExp(`^\\s*${key.replace(/[.-]/g, '\\$&')}\\s*[=:]\\s*(.+?)\\s*$`, 'gm'),
      ))
        push(hit.value, hit.line, how);
    return out;
  }
  for (const doc of parseYaml(file.text))
    for (const { key, how } of NAME_KEYS) {
      const node = lookup(doc, doc.root, key);
      push(str(doc, node), doc.line(node), how);
    }
  return out;
}

export const springConfigReader: ManifestReader = {
  id: 'Spring config',
  matches: (name) => CONFIG_FILE.test(name),
  read: (files) => files.flatMap(readOne),
};
