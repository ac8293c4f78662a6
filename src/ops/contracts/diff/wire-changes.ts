/**
 * A changed `.proto` file compared with its base version by the wire check, and the RPCs each finding
 * reaches: the method itself for an RPC finding, else the methods taking or returning the message the
 * changed element belongs to. A message used only as a field of another message is not followed further.
 */
import { readFileSync } from 'node:fs';
import type { IndexedFile, SnapshotReader } from '../../../index/reader.js';
import { compareProtoTexts } from '../wire-check/compare-proto-texts.js';
import type { WireFinding } from '../wire-check/findings.js';
import { parseSchema } from '../wire-check/parse-schema.js';
import type { SchemaModel } from '../wire-check/schema-model.js';
import { MAX_PROTO_BYTES } from '../wire-check.js';
import type { ChangedFile } from './working-tree-diff.js';

export const isSchemaFile = (file: string): boolean => file.toLowerCase().endsWith('.proto');

/** A wire finding with the RPCs whose requests or responses carry the element it is about. */
export interface WireChange extends WireFinding {
  readonly rpcs: readonly string[];
}

export type WireComparison =
  | { readonly kind: 'compared'; readonly findings: readonly WireFinding[]; readonly text: string }
  | { readonly kind: 'skipped'; readonly reason: string };

/**
 * The working-tree `.proto` (the file the index read; undefined when deleted) against its base text (undefined
 * for a new file, which then reports nothing).
 */
export function compareSchemaFile(
  file: ChangedFile,
  indexed: IndexedFile | undefined,
  baseText: string | undefined,
): WireComparison {
  if (baseText === undefined) return { kind: 'compared', findings: [], text: '' };
  if (file.status === 'deleted') return deletedSchema(baseText);
  let headText = '';
  if (indexed) {
    try {
      headText = readFileSync(indexed.absolutePath, 'utf8');
    } catch (error) {
      return {
        kind: 'skipped',
        reason: `the working-tree file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
    if (Buffer.byteLength(headText, 'utf8') > MAX_PROTO_BYTES)
      return {
        kind: 'skipped',
        reason: `the working-tree file is over the ${MAX_PROTO_BYTES}-byte limit for schema files`,
      };
  }
  try {
    return {
      kind: 'compared',
      findings: compareProtoTexts(baseText, headText),
      text: headText,
    };
  } catch (error) {
    return { kind: 'skipped', reason: (error as Error).message };
  }
}

/** A deleted schema: every RPC it declared is gone (its messages go with them, reported through the RPCs). */
function deletedSchema(baseText: string): WireComparison {
  let schema: SchemaModel;
  try {
    schema = parseSchema(baseText);
  } catch (error) {
    return { kind: 'skipped', reason: `the base version does not parse: ${(error as Error).message}` };
  }
  const prefix = schema.package ? `${schema.package}.` : '';
  const findings: WireFinding[] = [];
  for (const service of schema.services.values())
    for (const rpc of service.rpcs)
      findings.push({
        severity: 'breaking',
        rule: 'rpc_removed',
        element: `${prefix}${service.name}/${rpc.name}`,
        message: 'the schema file declaring it is deleted',
        side: 'base',
      });
  return { kind: 'compared', findings, text: baseText };
}

interface MethodIo {
  /** `pkg.Service/Method`. */
  readonly rpc: string;
  /** Fully qualified request and response message names. */
  readonly messages: readonly string[];
}

const qualified = (pkg: string | undefined, type: string): string =>
  type.startsWith('.') ? type.slice(1) : type.includes('.') || !pkg ? type : `${pkg}.${type}`;

/** Every RPC of the indexed schemas with the messages it takes and returns. */
function methodsOf(snapshot: SnapshotReader): MethodIo[] {
  const out: MethodIo[] = [];
  for (const file of snapshot.files) {
    for (const service of file.facts.protoServices ?? []) {
      const prefix = service.package ? `${service.package}.${service.name}` : service.name;
      for (const method of service.methods)
        out.push({
          rpc: `${prefix}/${method.name}`,
          messages: [
            qualified(service.package, method.requestType),
            qualified(service.package, method.responseType),
          ],
        });
    }
  }
  return out;
}

const within = (element: string, type: string): boolean => element === type || element.startsWith(`${type}.`);

/** Types of the schema (package-relative) whose wire form holds the element: its own, then every message with a field of one of those, repeatedly. */
function typesHolding(schema: SchemaModel, relativeElement: string): Set<string> {
  const own = [...schema.messages.keys(), ...schema.enums.keys()]
    .filter((name) => within(relativeElement, name))
    .sort((a, b) => b.length - a.length)[0];
  const holding = new Set<string>(own === undefined ? [] : [own]);
  for (let grew = holding.size > 0; grew;) {
    grew = false;
    for (const message of schema.messages.values()) {
      if (holding.has(message.name)) continue;
      if (
        message.fields.some(
          (f) => holding.has(f.type.name) || (f.keyType !== undefined && holding.has(f.keyType.name)),
        )
      ) {
        holding.add(message.name);
        grew = true;
      }
    }
  }
  return holding;
}

/** RPCs of one schema text carrying the element in their request or response, directly or nested. */
function rpcsOfSchema(text: string, element: string): string[] {
  let schema: SchemaModel;
  try {
    schema = parseSchema(text);
  } catch {
    return [];
  }
  const prefix = schema.package ? `${schema.package}.` : '';
  const relativeElement = element.startsWith(prefix) ? element.slice(prefix.length) : element;
  const holding = typesHolding(schema, relativeElement);
  const rpcs: string[] = [];
  for (const service of schema.services.values())
    for (const rpc of service.rpcs)
      if (holding.has(rpc.request.name) || holding.has(rpc.response.name))
        rpcs.push(`${prefix}${service.name}/${rpc.name}`);
  return rpcs;
}

/** The base version's RPCs, by their base names: of one service (bare name), or all of them. */
function baseRpcs(baseText: string, serviceName?: string): string[] {
  let schema: SchemaModel;
  try {
    schema = parseSchema(baseText);
  } catch {
    return [];
  }
  const prefix = schema.package ? `${schema.package}.` : '';
  return [...schema.services.values()]
    .filter((service) => serviceName === undefined || service.name === serviceName)
    .flatMap((service) => service.rpcs.map((rpc) => `${prefix}${service.name}/${rpc.name}`));
}

/**
 * The RPCs a wire finding reaches (sorted, each once): the RPC itself; every RPC of a removed service, or of
 * a file whose package changed, by the names clients still call; else the RPCs of the changed file whose
 * messages hold the element, and the indexed RPCs taking or returning its message directly.
 */
export function rpcsOfFinding(
  snapshot: SnapshotReader,
  finding: WireFinding,
  schemaText: string,
  baseText: string,
): string[] {
  if (finding.element.includes('/')) return [finding.element];
  if (finding.rule === 'package_changed') return baseRpcs(baseText).sort();
  if (finding.rule === 'rpc_removed')
    return baseRpcs(baseText, finding.element.slice(finding.element.lastIndexOf('.') + 1)).sort();
  const hits = new Set<string>(rpcsOfSchema(schemaText, finding.element));
  for (const method of methodsOf(snapshot))
    if (method.messages.some((m) => within(finding.element, m))) hits.add(method.rpc);
  return [...hits].sort();
}
