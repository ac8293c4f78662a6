/**
 * How an outcome is stored in a `facts` row: its kind as an index into `OUTCOME_KINDS` (the `kind` column),
 * and its facts as JSON, deflated with a preset dictionary unless small (the `enc` and `value` columns).
 */
import zlib from 'node:zlib';
import type { FileFacts } from '../index/facts.js';

/**
 * Below this the JSON is stored as is. Each zlib call allocates a fresh 64 KB state: for the ~1 KB facts of a
 * typical file, inflating on a warm start cost more (and fed the garbage collector more) than reading three
 * times the bytes from SQLite. Large files still compress well enough to be worth it.
 */
const COMPRESS_MIN_BYTES = 4096;
/**
 * Preset deflate dictionary of the keys and values every `FileFacts` repeats; it makes small files (most of a
 * workspace) about a quarter smaller. Frozen: changing it needs a `CACHE_SCHEMA_VERSION` bump (fact-cache-db.ts).
 */
const DICTIONARY = Buffer.from(
  '"decorators":["@"],"docstring":"","parent":,"exported":true,"exported":false,"bodyStartLine":,"bodyEndLine":,' +
    '"startLine":,"endLine":,"signature":"","qualifiedName":"","name":"","kind":"method","kind":"function",' +
    '"kind":"class","kind":"field","kind":"const","id":{"symbols":[{"imports":[{"source":"","names":["","line":,' +
    '"reexport":true,"resolved":"","contracts":[{"confidence":"exact","via":"","symbol":,"kind":"grpc_server",' +
    '"service":"","method":"","kind":"grpc_client","kind":"topic_producer","kind":"topic_consumer","topic":"",' +
    '"kind":"http_route","path":"","package":"","language":"typescript","',
);
/** How `facts.value` is stored (the `enc` column). */
const ENC_JSON = 0;
const ENC_DEFLATE_DICT = 1;
/** The `kind` column holds an outcome kind's index in this list. */
export const OUTCOME_KINDS = ['parsed', 'no-grammar'] as const;

/** One entry as stored: the outcome kind's index in `OUTCOME_KINDS` and the facts as `encodeFacts` wrote them. */
export interface RawFact {
  /** The `factKey()` of the entry, as hex. */
  readonly key: string;
  readonly kind: number;
  readonly enc: number;
  readonly value: Buffer;
}

/** The `enc` and `value` columns for a file's facts. */
export function encodeFacts(facts: FileFacts): [number, Buffer] {
  const json = Buffer.from(JSON.stringify(facts), 'utf8');
  if (json.length < COMPRESS_MIN_BYTES) return [ENC_JSON, json];
  return [ENC_DEFLATE_DICT, zlib.deflateRawSync(json, { level: 3, dictionary: DICTIONARY })];
}

/** The facts `encodeFacts` stored; throws on a damaged value. */
export function decodeFacts(enc: number, value: Buffer): FileFacts {
  const json = enc === ENC_DEFLATE_DICT ? zlib.inflateRawSync(value, { dictionary: DICTIONARY }) : value;
  return JSON.parse(json.toString('utf8')) as FileFacts;
}
