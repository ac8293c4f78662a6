/**
 * OpenAPI (and Swagger 2) and AsyncAPI specification files, YAML or JSON, read as syntax trees for real line
 * numbers. OpenAPI `paths` become `http_route` facts and `http_endpoint` symbols; AsyncAPI channels become
 * `topic` symbols and producer/consumer facts.
 *
 * AsyncAPI direction. 2.x describes operations from the point of view of a *client* of the application:
 * `subscribe` means "clients can subscribe to messages this application sends", so the application
 * PRODUCES on that channel; `publish` means "clients publish messages this application receives", so it
 * CONSUMES. 3.x says it directly: `action: send` produces, `action: receive` consumes.
 *
 * Server URLs (OpenAPI 3 `servers`, Swagger 2 `basePath`) are ignored: routes are the paths as written, the
 * way code declares them.
 */
import type { FileFacts } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { YamlFile, type YamlDoc } from '../shared/yaml-utils.js';
import type { Node as YamlNode, YAMLMap } from 'yaml';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query']);

/** Leading `/`, no trailing `/` (except the root), `{param}` kept as written. */
export function normaliseSpecPath(path: string): string {
  let p = path.trim();
  if (!p.startsWith('/')) p = `/${p}`;
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

/** Throws when the file is not valid YAML/JSON, which marks it failed with the parser's reason. */
export function extractOpenApi(input: ExtractInput): FileFacts {
  const file = new YamlFile(input.source);
  const error = file.firstError();
  if (error !== undefined) throw new Error(`invalid ${input.language} document: ${error}`);
  const out = new FactBuilder(input.language);
  for (const { doc } of file.documents) {
    const root = doc.map(doc.root);
    if (root === undefined) continue;
    const has = (key: string): boolean => doc.get(root, key) !== undefined;
    if (
      has('openapi') ||
      has('swagger') ||
      (input.language === 'openapi' && doc.map(doc.get(root, 'paths')))
    ) {
      openApiPaths(doc, root, out);
    }
    if (has('asyncapi') || input.language === 'asyncapi') {
      const major = Number.parseInt(doc.text(doc.get(root, 'asyncapi')) ?? '', 10);
      if (major >= 3) asyncApi3(doc, root, out);
      else asyncApi2(doc, root, out);
      topicList(doc, root, out);
    }
  }
  return out.build();
}

function describe(doc: YamlDoc, operation: YAMLMap | undefined): string | undefined {
  const summary = doc.text(doc.get(operation, 'summary'))?.trim();
  const description = doc.text(doc.get(operation, 'description'))?.trim();
  const text = [summary, description].filter((t) => t !== undefined && t !== '').join('\n\n');
  return text === '' ? undefined : text;
}

function openApiPaths(doc: YamlDoc, root: YAMLMap, out: FactBuilder): void {
  const paths = doc.map(doc.get(root, 'paths'));
  if (paths === undefined) return;
  for (const pathEntry of doc.entries(paths)) {
    const item = doc.map(pathEntry.value);
    if (item === undefined || pathEntry.key.startsWith('x-')) continue;
    const path = normaliseSpecPath(pathEntry.key);
    for (const entry of doc.entries(item)) {
      if (!HTTP_METHODS.has(entry.key.toLowerCase())) continue;
      const method = entry.key.toUpperCase();
      const operation = doc.map(entry.value);
      const name = `${method} ${path}`;
      const operationId = doc.text(doc.get(operation, 'operationId'));
      const docstring = describe(doc, operation);
      const id = out.addSymbol({
        kind: 'http_endpoint',
        name,
        qualifiedName: operationId ?? name,
        signature: name,
        startLine: entry.line,
        endLine: Math.max(entry.line, doc.endLine(entry.value)),
        ...(docstring !== undefined ? { docstring } : {}),
      });
      out.addContract({ kind: 'http_route', method, path, symbol: id, line: entry.line, via: 'openapi' });
    }
  }
}

/** The topic a channel carries: the Kafka binding's `topic` when it names one, else the channel address. */
function topicOf(doc: YamlDoc, channel: YAMLMap | undefined, address: string): string {
  const kafka = doc.map(doc.get(doc.map(doc.get(channel, 'bindings')), 'kafka'));
  const topic = doc.text(doc.get(kafka, 'topic'))?.trim();
  return topic !== undefined && topic !== '' ? topic : address;
}

function asyncApi2(doc: YamlDoc, root: YAMLMap, out: FactBuilder): void {
  const channels = doc.map(doc.get(root, 'channels'));
  if (channels === undefined) return;
  for (const entry of doc.entries(channels)) {
    const channel = doc.map(entry.value);
    const topic = topicOf(doc, channel, entry.key);
    const docstring = describe(doc, channel);
    const id = out.addSymbol({
      kind: 'topic',
      name: topic,
      qualifiedName: entry.key,
      signature: `channel ${entry.key}`,
      startLine: entry.line,
      endLine: Math.max(entry.line, doc.endLine(entry.value)),
      ...(docstring !== undefined ? { docstring } : {}),
    });
    if (channel === undefined) continue;
    for (const op of doc.entries(channel)) {
      const kind =
        op.key === 'subscribe' ? 'topic_producer' : op.key === 'publish' ? 'topic_consumer' : undefined;
      if (kind === undefined) continue;
      out.addContract({
        kind,
        topic,
        symbol: id,
        line: op.line,
        confidence: 'exact',
        via: `asyncapi ${op.key}`,
      });
    }
  }
}

/** `#/channels/user~1signedup` → `user/signedup` (JSON pointer escapes, then percent-encoding). */
function channelIdOf(ref: string): string | undefined {
  const match = /^#\/channels\/([^/]+)$/.exec(ref);
  if (match?.[1] === undefined) return undefined;
  let id = match[1].replace(/~1/g, '/').replace(/~0/g, '~');
  try {
    id = decodeURIComponent(id);
  } catch {
    // Not percent-encoded after all: keep it as written.
  }
  return id;
}

function asyncApi3(doc: YamlDoc, root: YAMLMap, out: FactBuilder): void {
  const channels = doc.map(doc.get(root, 'channels'));
  // Channel id → topic; a channel whose address is null or absent has an unknown address, and no topic.
  const topics = new Map<string, string>();
  for (const entry of channels === undefined ? [] : doc.entries(channels)) {
    const channel = doc.map(entry.value);
    const address = doc.text(doc.get(channel, 'address'));
    if (channel === undefined || address === undefined) continue;
    const topic = topicOf(doc, channel, address);
    topics.set(entry.key, topic);
    const docstring = describe(doc, channel);
    out.addSymbol({
      kind: 'topic',
      name: topic,
      qualifiedName: entry.key,
      signature: `channel ${entry.key}: ${address}`,
      startLine: entry.line,
      endLine: Math.max(entry.line, doc.endLine(entry.value)),
      ...(docstring !== undefined ? { docstring } : {}),
    });
  }
  const operations = doc.map(doc.get(root, 'operations'));
  if (operations === undefined) return;
  for (const entry of doc.entries(operations)) {
    const operation = doc.map(entry.value);
    const action = doc.text(doc.get(operation, 'action'));
    const kind = action === 'send' ? 'topic_producer' : action === 'receive' ? 'topic_consumer' : undefined;
    const ref = doc.text(doc.get(doc.map(doc.get(operation, 'channel')), '$ref'));
    const channelId = ref !== undefined ? channelIdOf(ref) : undefined;
    const topic = channelId !== undefined ? topics.get(channelId) : undefined;
    if (kind === undefined || topic === undefined) continue;
    out.addContract({ kind, topic, line: entry.line, confidence: 'exact', via: `asyncapi ${action}` });
  }
}

/** A top-level `topics:` list of names (a common shorthand next to or instead of channels). */
function topicList(doc: YamlDoc, root: YAMLMap, out: FactBuilder): void {
  const list = doc.seq(doc.get(root, 'topics'));
  for (const item of list?.items ?? []) {
    const name = doc.text(item)?.trim();
    if (name === undefined || name === '') continue;
    const line = doc.line(item as YamlNode);
    out.addSymbol({
      kind: 'topic',
      name,
      qualifiedName: name,
      signature: `topic ${name}`,
      startLine: line,
      endLine: line,
    });
  }
}
