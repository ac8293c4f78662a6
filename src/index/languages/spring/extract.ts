/**
 * Spring configuration (`application*.yml|yaml|properties`, `bootstrap*`): flattened dotted properties with
 * the line each is written on, secrets masked. The reconciler resolves `${shop.topics.orders}` placeholders
 * found in code against them.
 *
 * Multi-document YAML (`---`, one document per `spring.config.activate.on-profile`) keeps every document's
 * keys, in document order, even when a later document repeats a key: which one applies depends on the
 * active profile, which only the reconciler (or the user) can choose. Each document's own
 * `spring.config.activate.on-profile` property sits among its keys, so the lines tell which document a
 * property belongs to.
 */
import { maskPropertyValue } from '../../../trust/secret-mask.js';
import type { FileFacts, PropertyFact } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { FactBuilder } from '../shared/fact-builder.js';
import type { ProxyFact } from '../shared/gateway-paths.js';
import { cloudGatewayRoutes } from './cloud-gateway.js';
import { zuulRoutes } from './zuul.js';
import { YamlFile, type YamlDoc } from '../shared/yaml-utils.js';
import { isAlias, isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';

/** Flattened output allowed per input byte, with a floor for small files (MeshMCP's rule). */
const OUTPUT_PER_BYTE = 8;
const MIN_OUTPUT = 64 * 1024;

class PropertySink {
  readonly properties: PropertyFact[] = [];
  private remaining: number;

  constructor(sourceLength: number) {
    this.remaining = Math.max(MIN_OUTPUT, sourceLength * OUTPUT_PER_BYTE);
  }

  add(key: string, rawValue: string, line: number): void {
    this.remaining -= key.length + rawValue.length;
    if (this.remaining < 0) throw new Error('flattened properties exceed 8× the file size (alias bomb?)');
    this.properties.push({ key, value: maskPropertyValue(key, rawValue).value, line });
  }
}

/** The keys that make a document apply under one profile only (Spring Boot 2.4+, then the older one). */
const PROFILE_KEYS = ['spring.config.activate.on-profile', 'spring.profiles'];

/** `application-docker.yml`, `bootstrap-k8s.properties` → the profile in the file name. */
function profileOfFile(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return /^(?:application|bootstrap)-([^.]+)\./i.exec(name)?.[1];
}

/** Properties of one document, each tagged with the profile it applies under (none: the default). */
function withProfile(properties: readonly PropertyFact[], fileProfile: string | undefined): PropertyFact[] {
  const own = properties.find((p) => PROFILE_KEYS.includes(p.key))?.value.trim();
  const profile = own !== undefined && own !== '' ? own : fileProfile;
  return profile === undefined ? [...properties] : properties.map((p) => ({ ...p, profile }));
}

export function extractSpring(input: ExtractInput): FileFacts {
  const fileProfile = profileOfFile(input.path);
  const properties: PropertyFact[] = [];
  const documents = input.path.toLowerCase().endsWith('.properties')
    ? propertiesDocuments(input.source)
    : yamlDocuments(input.source);
  for (const document of documents)
    properties.push(...withProfile(document, fileProfile).map(quarkusProfiled));
  const builder = new FactBuilder(input.language);
  for (const fact of gatewayRoutes(properties)) builder.addContract(fact);
  return builder.build({ properties });
}

/** Zuul and Spring Cloud Gateway routes, read per profile (each profile's documents configure their own). */
function gatewayRoutes(properties: readonly PropertyFact[]): ProxyFact[] {
  const byProfile = new Map<string | undefined, PropertyFact[]>();
  for (const property of properties) {
    const group =
      byProfile.get(property.profile) ?? byProfile.set(property.profile, []).get(property.profile);
    group?.push(property);
  }
  return [...byProfile.values()].flatMap((group) => [...zuulRoutes(group), ...cloudGatewayRoutes(group)]);
}

/**
 * Quarkus writes a profile's value as `%dev.mp.messaging.incoming.orders.topic`: the key without the prefix,
 * under that profile, so placeholders naming the key find it.
 */
function quarkusProfiled(property: PropertyFact): PropertyFact {
  const match = /^%([\w-]+)\.(.+)$/.exec(property.key);
  return match === null ? property : { ...property, key: match[2] ?? property.key, profile: match[1] };
}

/** A `.properties` file's documents: a `#---` (or `!---`) line starts a new one (Spring Boot 2.4+). */
function propertiesDocuments(source: string): PropertyFact[][] {
  const sink = new PropertySink(source.length);
  parseProperties(source, sink);
  const separators: number[] = [];
  source.split(/\r\n|\r|\n/).forEach((line, i) => {
    if (/^[#!]---\s*$/.test(line)) separators.push(i + 1);
  });
  const documents: PropertyFact[][] = Array.from({ length: separators.length + 1 }, () => []);
  for (const property of sink.properties) {
    documents[separators.filter((line) => line < property.line).length]?.push(property);
  }
  return documents;
}

/** Each document's flattened properties, in document order. */
function yamlDocuments(source: string): PropertyFact[][] {
  const file = new YamlFile(source);
  const error = file.firstError();
  if (error !== undefined) throw new Error(`invalid YAML: ${error}`);
  // One sink for the whole file: the output budget is the file's, not each document's.
  const sink = new PropertySink(source.length);
  const documents: PropertyFact[][] = [];
  for (const { doc } of file.documents) {
    const start = sink.properties.length;
    const root = doc.root;
    if (isMap(root)) flatten(doc, root, '', doc.line(root), sink);
    documents.push(sink.properties.slice(start));
  }
  return documents;
}

/**
 * `node` under `key` (written on `line`): maps add `.child`, sequences add `[i]`, scalars are emitted. Keys
 * reached through an alias or a `<<` merge are reported on the line of the alias or merge: the anchored text
 * is elsewhere, but that line is where these keys enter this part of the configuration.
 */
function flatten(
  doc: YamlDoc,
  raw: YamlNode | null,
  key: string,
  line: number,
  sink: PropertySink,
  pinned?: number,
): void {
  doc.spend(1);
  const at = pinned ?? (isAlias(raw) ? line : undefined);
  const node = doc.resolve(raw);
  if (isMap(node)) {
    for (const entry of doc.entries(node)) {
      flatten(doc, entry.value, key === '' ? entry.key : `${key}.${entry.key}`, at ?? entry.line, sink, at);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      const itemNode = item as YamlNode | null;
      const itemLine = at ?? (itemNode === null ? line : doc.line(itemNode));
      flatten(doc, itemNode, `${key}[${index}]`, itemLine, sink, at);
    });
  } else if (key !== '' && (node === null || isScalar(node))) {
    sink.add(key, doc.text(node) ?? '', line);
  }
}

/**
 * `java.util.Properties` syntax: `key=value`, `key: value` or `key value`; `#` and `!` comments; a line ending
 * in an odd number of backslashes continues on the next one (whose leading blanks are dropped); `\uXXXX`,
 * `\t`, `\n`… escapes. A property's line is the line its key is on.
 */
export function parseProperties(
  source: string,
  sink: { add(key: string, value: string, line: number): void },
): void {
  const lines = source.split(/\r\n|\r|\n/);
  let i = 0;
  while (i < lines.length) {
    const startLine = i + 1;
    let logical = (lines[i] ?? '').replace(/^[ \t\f]+/, '');
    i += 1;
    if (logical === '' || logical.startsWith('#') || logical.startsWith('!')) continue;
    while (endsWithOddBackslashes(logical)) {
      logical = logical.slice(0, -1);
      if (i >= lines.length) break;
      logical += (lines[i] ?? '').replace(/^[ \t\f]+/, '');
      i += 1;
    }
    let k = 0;
    while (k < logical.length && !/[=: \t\f]/.test(logical[k] as string)) k += logical[k] === '\\' ? 2 : 1;
    const key = unescape(logical.slice(0, Math.min(k, logical.length)));
    let v = k;
    while (v < logical.length && /[ \t\f]/.test(logical[v] as string)) v += 1;
    if (logical[v] === '=' || logical[v] === ':') v += 1;
    while (v < logical.length && /[ \t\f]/.test(logical[v] as string)) v += 1;
    sink.add(key, unescape(logical.slice(v)), startLine);
  }
}

function endsWithOddBackslashes(text: string): boolean {
  let count = 0;
  for (let j = text.length - 1; j >= 0 && text[j] === '\\'; j -= 1) count += 1;
  return count % 2 === 1;
}

const ESCAPES: Readonly<Record<string, string>> = { t: '\t', n: '\n', r: '\r', f: '\f' };

function unescape(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_whole, escaped: string) => {
    if (escaped.length === 5) return String.fromCharCode(Number.parseInt(escaped.slice(1), 16));
    return ESCAPES[escaped] ?? escaped;
  });
}
