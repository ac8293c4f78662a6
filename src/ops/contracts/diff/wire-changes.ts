/**
 * A changed `.proto` file compared with its base version by the wire check, and the RPCs each finding
 * reaches: the method itself for an RPC finding, else the methods taking or returning the message the
 * changed element belongs to. A message used only as a field of another message is not followed further.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SnapshotReader } from '../../../index/reader.js';
import { compareProtoTexts } from '../wire-check/compare-proto-texts.js';
import type { WireFinding } from '../wire-check/findings.js';
import { MAX_PROTO_BYTES } from '../wire-check.js';
import type { ChangedFile } from './working-tree-diff.js';

export const isSchemaFile = (file: string): boolean => file.toLowerCase().endsWith('.proto');

export type WireComparison =
  | { readonly kind: 'compared'; readonly findings: readonly WireFinding[] }
  | { readonly kind: 'skipped'; readonly reason: string };

/** The working-tree `.proto` against its base text (empty for a new file, which then reports nothing). */
export function compareSchemaFile(file: ChangedFile, baseText: string | undefined): WireComparison {
  if (baseText === undefined) return { kind: 'compared', findings: [] };
  let headText = '';
  if (file.status !== 'deleted') {
    try {
      headText = readFileSync(path.join(file.location.top, ...file.location.relative.split('/')), 'utf8');
    } catch (error) {
      return { kind: 'skipped', reason: `the working-tree file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    if (Buffer.byteLength(headText, 'utf8') > MAX_PROTO_BYTES)
      return { kind: 'skipped', reason: `the working-tree file is over the ${MAX_PROTO_BYTES}-byte limit for schema files` };
  }
  try {
    return { kind: 'compared', findings: compareProtoTexts(baseText, headText) };
  } catch (error) {
    return { kind: 'skipped', reason: (error as Error).message };
  }
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
          messages: [qualified(service.package, method.requestType), qualified(service.package, method.responseType)],
        });
    }
  }
  return out;
}

/** The RPCs a wire finding reaches (sorted, each once). */
export function rpcsOfFinding(snapshot: SnapshotReader, finding: WireFinding): string[] {
  if (finding.element.includes('/')) return [finding.element];
  const hits = new Set<string>();
  for (const method of methodsOf(snapshot))
    if (method.messages.some((m) => finding.element === m || finding.element.startsWith(`${m}.`))) hits.add(method.rpc);
  return [...hits].sort();
}
