/**
 * Masks the secret values assigned on one line: `key: value`, `key = value`, `key := value`, `"key": "value"`,
 * `--flag=value`, a literal fallback in code (`process.env.X || 'dev-secret'`) and `<password>…</password>`.
 * A line that opens a YAML block scalar (`secret: |`) is reported, so the caller masks the lines that follow.
 */
import { isSecretKey } from './secret-keys.js';
import {
  expressionEnd,
  keyBefore,
  nextOperator,
  stringSpans,
  type KeyAt,
  type StringSpans,
} from './secret-line-syntax.js';
import { isCodeValue, isTypeExpression, maskValue } from './secret-values.js';

/** A type in `name: Type = value`; a capitalised name or a known type, never a lower-case word like `abc`. */
const CAPITALISED_TYPE = /^\p{Lu}[\p{L}\p{N}_$.]*\s*(?:<.*>|\[.*\])?(?:\[\])*\??$/u;
/** What may precede a key for `key: value` to be read as config: indentation, a comment mark, a list dash, `export`. */
const CONFIG_PREFIX = /^\s*(?:(?:#+|\/\/|--|;|\*)\s*)?(?:-\s+)?(?:(?:export|ENV|ARG|set)\s+)?$/;
const COMMENT_PREFIX = /^\s*(?:#|\/\/|--|;|\*)/;
const FALLBACK_BEFORE = /(?:\|\||\?\?|\?:|\bor)\s*$/;
const ENV_GETTER_BEFORE =
  /(?:getenv|environ\.get|getProperty|getOrDefault|fetch|env)\s*\(\s*(["'`]).*?\1\s*,\s*$/;
const XML_ELEMENT = /<([A-Za-z_][\w.:-]*)(\s[^>]*)?>([^<]+)<\/\1>/g;

type Edit = { readonly start: number; readonly end: number; readonly text: string };

/**
 * Every word `isSecretKey` accepts contains one of these (secret-keys.ts), in lower case: a line without
 * any of them names no secret and is left as it is without being parsed, which most lines are.
 */
export const KEY_CUES = ['pass', 'pwd', 'secret', 'credential', 'token', 'jwt', 'key'];

const mayNameSecret = (line: string, valueKey: string | undefined): boolean => {
  if (valueKey !== undefined && isSecretKey(valueKey)) return true;
  const lower = line.toLowerCase();
  return KEY_CUES.some((cue) => lower.includes(cue));
};

export function maskAssignments(
  line: string,
  valueKey?: string,
): { line: string; redactions: number; blockStarted: boolean } {
  if (!mayNameSecret(line, valueKey)) return { line, redactions: 0, blockStarted: false };
  const assignments = assignmentEdits(line, valueKey);
  const xml = maskXmlElements(applyEdits(line, assignments.edits));
  return {
    line: xml.line,
    redactions: assignments.redactions + xml.redactions,
    blockStarted: assignments.blockStarted,
  };
}

/**
 * The replacements for the secret values assigned on a line, found operator by operator from the left, and
 * whether the line opens a YAML block scalar under a secret key.
 */
function assignmentEdits(
  line: string,
  valueKey: string | undefined,
): { edits: Edit[]; redactions: number; blockStarted: boolean } {
  const spans = stringSpans(line);
  const edits: Edit[] = [];
  let redactions = 0;
  let blockStarted = false;
  let pending: KeyAt | undefined;
  let cursor = 0;
  const apply = (start: number, end: number, key: string, raw: string): void => {
    const result = maskValue(key, raw);
    if (!result) return;
    edits.push({ start, end, text: result.value });
    redactions += result.count;
  };

  for (let op = nextOperator(line, cursor, spans); op; op = nextOperator(line, cursor, spans)) {
    cursor = op.end;
    const before = op.op === '=' && pending ? pending : keyBefore(line, op.start, spans);
    pending = undefined;
    if (!before) continue;
    const found = valueKey !== undefined && before.key === 'value' ? { ...before, key: valueKey } : before;
    let v = op.end;
    while (v < line.length && /\s/.test(line[v] ?? '')) v++;
    const literal = spans.startingAt(v);
    if (op.op === ':' && !literal && isTypeAnnotation(line, v, spans)) {
      pending = found; // the `=` after the annotation carries the value
      continue;
    }
    if (!isSecretKey(found.key)) continue;
    if (literal) {
      const contentEnd = literal.closed ? literal.end - 1 : literal.end;
      apply(literal.start + 1, contentEnd, found.key, line.slice(literal.start + 1, contentEnd));
      cursor = literal.end;
      continue;
    }
    const prefix = line.slice(0, found.start);
    const flag = /^-{1,2}\p{L}/u.test(found.key) && op.op === '=';
    const configStyle =
      (op.op === ':' || op.op === '=' || op.op === '?=') &&
      CONFIG_PREFIX.test(prefix) &&
      !found.declared &&
      !/^(?:this|self)\./.test(found.key);
    if (flag || configStyle) {
      const rest = line.slice(v);
      const raw = (flag ? (/^\S*/.exec(rest)?.[0] ?? '') : rest.replace(/\s+#.*$/, '')).trimEnd();
      if (/^[|>][-+0-9]*$/.test(raw)) {
        blockStarted = true; // the secret is on the more-indented lines that follow
        break;
      }
      const anchored = /^&\S+\s+/.exec(raw)?.[0].length ?? 0; // YAML `&anchor value`
      const trailing = /[,;]$/.test(raw);
      const value = raw.slice(anchored, trailing ? -1 : undefined).trimEnd();
      if (!isCodeValue(value, trailing) && !(COMMENT_PREFIX.test(prefix) && /\s/.test(value))) {
        apply(v + anchored, v + anchored + value.length, found.key, value);
        if (!flag) break; // a config value runs to the end of the line
        cursor = v + raw.length;
        continue;
      }
    }
    // A code expression: only a literal fallback (`process.env.X || 'dev-secret'`) is a hard-coded value.
    const end = Math.abs(expressionEnd(line, v, spans));
    for (const span of spans.closedWithin(v, end)) {
      const before = line.slice(v, span.start);
      if (FALLBACK_BEFORE.test(before) || ENV_GETTER_BEFORE.test(before)) {
        apply(span.start + 1, span.end - 1, found.key, line.slice(span.start + 1, span.end - 1));
      }
    }
    cursor = Math.max(cursor, end);
  }
  return { edits, redactions, blockStarted };
}

/** `token: string = '…'`: what follows the colon at `v` is a type, ended by a spaced `=`. */
function isTypeAnnotation(line: string, v: number, spans: StringSpans): boolean {
  const eq = -expressionEnd(line, v, spans, true) - 1;
  if (eq < 0 || !/\s/.test(line[eq - 1] ?? '')) return false;
  const annotation = line.slice(v, eq).trim();
  return isTypeExpression(annotation) || CAPITALISED_TYPE.test(annotation);
}

/** Applies non-overlapping edits right to left, so that each one's offsets still hold. */
function applyEdits(line: string, edits: Edit[]): string {
  let out = line;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

/** `<password>…</password>`: the text of an element named like a secret key. */
function maskXmlElements(line: string): { line: string; redactions: number } {
  let redactions = 0;
  const out = line.replace(
    XML_ELEMENT,
    (whole, tag: string, attributes: string | undefined, inner: string) => {
      if (!isSecretKey(tag)) return whole;
      const result = maskValue(tag, inner.trim());
      if (!result) return whole;
      redactions += result.count;
      return `<${tag}${attributes ?? ''}>${result.value}</${tag}>`;
    },
  );
  return { line: out, redactions };
}
