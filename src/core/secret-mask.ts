/**
 * Masks secret values in text the server returns (snippets, config values). The rule of thumb: mask a literal
 * value bound to a secret-looking key, and leave alone everything that only *names* a secret (references,
 * env-var names, declarations, calls, enum members), because over-masking breaks code and JSON the caller reads.
 * Only the value is replaced; quotes, trailing `,`/`;`, type annotations and line structure stay as they were.
 */

export const REDACTED = '[REDACTED_SECRET]';

/** Word parts that make a key secret wherever they appear in it (`dbPassword`, `client_secret`). */
const STRONG = ['password', 'passwd', 'passphrase', 'secret', 'credential'];
/** Words that name a secret only as the final word: `db_pass` is one, `pass_through` and `jwt_issuer` are not. */
const WEAK_LAST = new Set(['pass', 'pwd', 'jwt']);
/** `…key` is secret only next to one of these (`api_key`, `privKey`, `jwt.signing.key`), never alone. */
const KEY_COMBOS = [
  ...['secret', 'priv', 'sign', 'encrypt', 'access', 'token', 'api', 'cert', 'auth'],
  ...['hmac', 'master', 'ssh', 'rsa', 'tls', 'ssl'],
];
/** A word after the secret word that says the value is *about* the secret, not the secret (`password_min_length`). */
const QUALIFIERS = new Set(
  (
    'name names url uri urls endpoint endpoints host port path paths file files filename dir directory folder ' +
    'location header headers length len min max minimum maximum limit policy policies type types kind ttl timeout ' +
    'expiry expires expiration expire lifetime validity duration interval period seconds ms field fields label ' +
    'placeholder hint message msg error title description help prefix suffix pattern regex enabled enable disabled ' +
    'required rounds algorithm alg format mode version env var variable count size provider strategy store manager ' +
    'service issuer audience scope scopes claims at ref arn source user username login email'
  ).split(' '),
);
/** Type names: `password: string` and `var password string` declare, they do not assign. */
const TYPE_NAMES = new Set(
  (
    'string number boolean bigint symbol any unknown object never void undefined null String Number Boolean Object ' +
    'str int float bytes bool dict list Optional List Dict Array Record Map Promise Buffer Uint8Array char byte long ' +
    'Integer Long Any Text SecretStr SecretString Secret'
  ).split(' '),
);

const INERT = /^(?:true|false|null|none|nil|undefined|~|yes|no|on|off)$/i;
const REFERENCE = /\$\{|\{\{|#\{|^\$[A-Za-z_]\w*$|^%[A-Za-z_]\w*%$/;
const DEFAULTED_REF = /\$\{([^${}:]+):(-?)([^${}]*)\}/g;
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const LABEL_WORD = /password|passwd|passphrase|secret|token|credential|api[ _-]?key|private key/i;
/**
 * An unquoted value that is code: `new X`, `this…`, a call or index (`getToken()`, `os.environ[…]`), a member
 * path (`process.env.JWT_SECRET`), an operator after a name (`process.env.X ?? '…'`), an opening (`{`, `[`, `(`)
 * or a YAML alias (`*defaults`). A lone word (`hunter2`) is not: in YAML and .properties it is the value.
 */
const CODE_VALUE = new RegExp(
  String.raw`^(?:[[{(]|\*[\w.-]+$|new\s|(?:this|self)\b|[\p{L}_$][\p{L}\p{N}_$]*(?:\s*[([]|\s*(?:\?\?|\|\||&&|\?\s|\bor\b)|` +
    String.raw`(?:\.[\p{L}_$][\p{L}\p{N}_$]*)+\s*(?:$|[([?|&+]|\bor\b)))`,
  'u',
);
const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;
/** A type in `name: Type = value`; a capitalised name or a known type, never a lower-case word like `abc`. */
const CAPITALISED_TYPE = /^\p{Lu}[\p{L}\p{N}_$.]*\s*(?:<.*>|\[.*\])?(?:\[\])*\??$/u;
/** What may precede a key for `key: value` to be read as config: indentation, a comment mark, a list dash, `export`. */
const CONFIG_PREFIX = /^\s*(?:(?:#+|\/\/|--|;|\*)\s*)?(?:-\s+)?(?:(?:export|ENV|ARG|set)\s+)?$/;
const COMMENT_PREFIX = /^\s*(?:#|\/\/|--|;|\*)/;
const FALLBACK_BEFORE = /(?:\|\||\?\?|\?:|\bor)\s*$/;
const ENV_GETTER_BEFORE =
  /(?:getenv|environ\.get|getProperty|getOrDefault|fetch|env)\s*\(\s*(["'`]).*?\1\s*,\s*$/;
const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;
const PEM_BODY = /[A-Za-z0-9+/=]+/g;
const XML_ELEMENT = /<([A-Za-z_][\w.:-]*)(\s[^>]*)?>([^<]+)<\/\1>/g;
/** Kubernetes and compose env lists: `- name: DB_PASSWORD` names the key of the `value:` on the next line. */
const ENV_ENTRY_NAME = /^\s*-?\s*name\s*:\s*["']?([\w.-]+)["']?\s*$/;
const IDENTIFIER_CHAR = /[\p{L}\p{N}_$@.-]/u;

function splitWords(segment: string): string[] {
  return segment
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** `spring.datasource.password`, `os.environ["X"]`, `"apiKey"` → the dotted or bracketed parts, unquoted. */
const segmentsOf = (key: string): string[] =>
  key
    .trim()
    .replace(/^["'`]|["'`]$/g, '')
    .split(/[./[\]:\\]+/)
    .filter((s) => s.length > 0);

const isCombo = (word: string | undefined): boolean =>
  word !== undefined && KEY_COMBOS.some((c) => word.startsWith(c));

function isSecretWord(word: string, before: readonly string[], last: boolean): boolean {
  if (STRONG.some((s) => word.includes(s))) return true;
  if (word === 'token' || (word.endsWith('token') && word.length > 5) || word.endsWith('pwd')) return true;
  if (WEAK_LAST.has(word)) return last;
  if (word === 'key' || word === 'keys') return isCombo(before.at(-1)) || isCombo(before.at(-2));
  const stem = /^(.+?)keys?$/.exec(word)?.[1];
  return stem !== undefined && isCombo(stem);
}

/** Whether a config key or variable name holds a secret. The last dotted segment decides (`jwt.expiration` is not). */
export function isSecretKey(key: string): boolean {
  const segments = segmentsOf(key);
  const lastSegment = segments.at(-1);
  if (lastSegment === undefined) return false;
  const earlier = segments.slice(0, -1).flatMap(splitWords);
  const words = splitWords(lastSegment);
  const all = [...earlier, ...words];
  let lastSecret = -1;
  words.forEach((word, i) => {
    const at = earlier.length + i;
    if (isSecretWord(word, all.slice(Math.max(0, at - 2), at), i === words.length - 1)) lastSecret = i;
  });
  return lastSecret >= 0 && !words.slice(lastSecret + 1).some((w) => QUALIFIERS.has(w));
}

const normaliseName = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** `${DB_PASSWORD:hunter2}` → `${DB_PASSWORD:[REDACTED_SECRET]}`; the reference itself stays. */
function maskDefaults(value: string): { value: string; count: number } {
  let count = 0;
  const masked = value.replace(DEFAULTED_REF, (whole, name: string, dash: string, fallback: string) => {
    if (fallback === '' || fallback === REDACTED || INERT.test(fallback)) return whole;
    count++;
    return `\${${name}:${dash}${REDACTED}}`;
  });
  return { value: masked, count };
}

/** The replacement for a value bound to a secret key, or undefined when the value only names or refers to one. */
function maskValue(key: string, value: string): { value: string; count: number } | undefined {
  if (value === '' || value === REDACTED || INERT.test(value)) return undefined;
  if (REFERENCE.test(value)) {
    const result = maskDefaults(value);
    return result.count > 0 ? result : undefined;
  }
  if (normaliseName(value) === normaliseName(segmentsOf(key).at(-1) ?? key)) return undefined; // PASSWORD = 'PASSWORD'
  if (ENV_NAME.test(value) && isSecretKey(value)) return undefined; // an env-var name, not its value
  // "Forgot password?" is a UI label; a PEM block also has spaces and says "PRIVATE KEY" but is the secret.
  if (/\s/.test(value) && LABEL_WORD.test(value) && !value.includes('-----')) return undefined;
  return { value: REDACTED, count: 1 };
}

/** `password: string | undefined`, `Optional[str]`: a type annotation, not a value. */
function isTypeExpression(value: string): boolean {
  return value.split(/[|&]/).every((part) => {
    const match = /^(?:readonly\s+)?([A-Za-z_][\w.]*)\s*(?:<.*>|\[.*\])?(?:\[\])*\??$/.exec(part.trim());
    return match !== null && TYPE_NAMES.has(match[1] ?? '');
  });
}

function isCodeValue(value: string, trailingSeparator: boolean): boolean {
  // `password: someVar,` is an object literal; `password: hunter2` is YAML.
  return CODE_VALUE.test(value) || isTypeExpression(value) || (trailingSeparator && IDENTIFIER.test(value));
}

/** For flattened config properties (Spring yml/properties), whose values are data, never code. */
export function maskPropertyValue(key: string, value: string): { value: string; masked: boolean } {
  if (!isSecretKey(key)) return { value, masked: false };
  const result = maskValue(key, value.trim());
  return result ? { value: result.value, masked: true } : { value, masked: false };
}

interface Span {
  readonly start: number;
  /** Exclusive; the closing quote is inside unless the literal runs off the line. */
  readonly end: number;
  readonly closed: boolean;
}

/** String literals on one line. An apostrophe between letters (`don't`) is prose, not a quote. */
function stringSpans(line: string): Span[] {
  const spans: Span[] = [];
  for (let i = 0; i < line.length; i++) {
    const quote = line[i];
    if (quote !== '"' && quote !== "'" && quote !== '`') continue;
    if (quote === "'" && /\p{L}/u.test(line[i - 1] ?? '') && /\p{L}/u.test(line[i + 1] ?? '')) continue;
    let j = i + 1;
    while (j < line.length && line[j] !== quote) j += line[j] === '\\' ? 2 : 1;
    spans.push({ start: i, end: Math.min(j + 1, line.length), closed: j < line.length });
    i = j;
  }
  return spans;
}

interface KeyAt {
  readonly key: string;
  readonly start: number;
  /** `password!: string`, `token?: string`: a declaration. */
  readonly declared: boolean;
}

function keyBefore(line: string, opStart: number, spans: readonly Span[]): KeyAt | undefined {
  let j = opStart - 1;
  while (j >= 0 && /\s/.test(line[j] ?? '')) j--;
  if (j < 0) return undefined;
  const bracketed = line[j] === ']' ? spans.find((s) => s.closed && s.end === j) : undefined;
  const quoted = bracketed ?? spans.find((s) => s.closed && s.end === j + 1);
  if (quoted) {
    const key = line.slice(quoted.start + 1, quoted.end - 1);
    return { key, start: bracketed ? quoted.start - 1 : quoted.start, declared: false };
  }
  let end = j + 1;
  let declared = false;
  while (j >= 0 && (line[j] === '?' || line[j] === '!')) {
    declared = true;
    end = --j + 1;
  }
  while (j >= 0 && IDENTIFIER_CHAR.test(line[j] ?? '')) j--;
  const key = line.slice(j + 1, end);
  if (!/\p{L}/u.test(key)) return undefined;
  // `var password string = "…"`: the name is the word before the type.
  if (TYPE_NAMES.has(key) && /\s/.test(line[j] ?? '')) {
    const name = keyBefore(line, j + 1, spans);
    if (name && !TYPE_NAMES.has(name.key)) return name;
  }
  return { key, start: j + 1, declared };
}

/** `=` that is neither `==`, `=>`, `!=`, `<=` nor `>=`. */
const isBareEquals = (line: string, i: number): boolean =>
  line[i] === '=' && !'=>'.includes(line[i + 1] ?? '>') && !'=!<>'.includes(line[i - 1] ?? '=');

/** Where a code expression ends: the first `,` `;` or unbalanced closing bracket outside strings. */
function expressionEnd(line: string, from: number, spans: readonly Span[], stopAtAssign = false): number {
  let depth = 0;
  for (let i = from; i < line.length; i++) {
    const span = spans.find((s) => s.start === i);
    if (span) {
      i = span.end - 1;
      continue;
    }
    const c = line[i];
    if (c === '(' || c === '[' || c === '{' || c === '<') depth++;
    else if (c === ')' || c === ']' || c === '}' || (c === '>' && line[i - 1] !== '=')) {
      if (depth === 0) return i;
      depth--;
    } else if (depth === 0 && (c === ',' || c === ';')) return i;
    else if (stopAtAssign && depth === 0 && isBareEquals(line, i)) return -i - 1;
  }
  return line.length;
}

type Edit = { readonly start: number; readonly end: number; readonly text: string };
type Operator = { readonly start: number; readonly end: number; readonly op: string };

/** The next assignment-like operator at or after `from`, outside string literals. */
function nextOperator(line: string, from: number, spans: readonly Span[]): Operator | undefined {
  for (let i = from; i < line.length; i++) {
    const span = spans.find((s) => s.start === i);
    if (span) {
      i = span.end - 1;
      continue;
    }
    const c = line[i];
    const next = line[i + 1];
    const prev = line[i - 1] ?? '';
    if (c === ':') {
      if (next === ':' || prev === ':' || (next === '/' && line[i + 2] === '/')) continue;
      if (next === '=') return { start: i, end: i + 2, op: ':=' };
      return { start: i, end: i + 1, op: ':' };
    }
    if (c === '=') {
      if (next === '=' || '!<>=+-*/%&|^~:'.includes(prev)) {
        while (line[i + 1] === '=') i++;
        continue;
      }
      if (next === '>') return { start: i, end: i + 2, op: '=>' };
      if (prev === '?') {
        if (line[i - 2] === '?') continue;
        return { start: i - 1, end: i + 1, op: '?=' };
      }
      return { start: i, end: i + 1, op: '=' };
    }
  }
  return undefined;
}

function maskAssignments(
  line: string,
  valueKey?: string,
): { line: string; redactions: number; blockStarted: boolean } {
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
    const literal = spans.find((s) => s.start === v);
    if (op.op === ':' && !literal) {
      const eq = -expressionEnd(line, v, spans, true) - 1;
      const annotation = eq >= 0 ? line.slice(v, eq).trim() : '';
      if (
        eq >= 0 &&
        /\s/.test(line[eq - 1] ?? '') &&
        (isTypeExpression(annotation) || CAPITALISED_TYPE.test(annotation))
      ) {
        pending = found; // `token: string = '…'`: the annotation ends at `=`, which carries the value
        continue;
      }
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
    for (const span of spans) {
      if (span.start < v || span.end > end || !span.closed) continue;
      const before = line.slice(v, span.start);
      if (FALLBACK_BEFORE.test(before) || ENV_GETTER_BEFORE.test(before)) {
        apply(span.start + 1, span.end - 1, found.key, line.slice(span.start + 1, span.end - 1));
      }
    }
    cursor = Math.max(cursor, end);
  }

  let out = line;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  out = out.replace(XML_ELEMENT, (whole, tag: string, attributes: string | undefined, inner: string) => {
    if (!isSecretKey(tag)) return whole;
    const result = maskValue(tag, inner.trim());
    if (!result) return whole;
    redactions += result.count;
    return `<${tag}${attributes ?? ''}>${result.value}</${tag}>`;
  });
  return { line: out, redactions, blockStarted };
}

const indentOf = (line: string): number => /^[ \t]*/.exec(line)?.[0].length ?? 0;

/**
 * Masks secret values in `key: value` / `key = value` / `key := value` / `"key": "value"` / `const key = '…'`
 * lines of source or config text; returns the text and how many values were masked. Line count and line order
 * never change.
 */
export function maskSecrets(text: string): { text: string; redactions: number } {
  let redactions = 0;
  /** Indentation of a `secret: |` line while its block scalar lasts. */
  let blockIndent: number | undefined;
  let blockCounted = false;
  let inPem = false;
  let pemCounted = false;
  let envName: string | undefined;
  const lines = text.split('\n').map((raw) => {
    const cr = raw.endsWith('\r') ? '\r' : '';
    const line = cr ? raw.slice(0, -1) : raw;
    if (blockIndent !== undefined) {
      if (line.trim() === '') return raw;
      if (indentOf(line) > blockIndent) {
        if (!blockCounted) redactions++;
        blockCounted = true;
        return line.slice(0, indentOf(line)) + REDACTED + cr;
      }
      blockIndent = undefined;
    }
    if (inPem) {
      inPem = !line.includes('-----');
      // The marker's own letters look like base64, so mask only between markers already there.
      const body = inPem
        ? line
            .split(REDACTED)
            .map((part) => part.replace(PEM_BODY, REDACTED))
            .join(REDACTED)
        : line;
      if (body !== line && !pemCounted) redactions++;
      pemCounted ||= body !== line;
      return body + cr;
    }
    const masked = maskAssignments(line, envName);
    envName = ENV_ENTRY_NAME.exec(line)?.[1];
    redactions += masked.redactions;
    if (masked.blockStarted) {
      blockIndent = indentOf(line);
      blockCounted = false;
    }
    let out = masked.line;
    const begin = PEM_BEGIN.exec(out);
    if (begin) {
      const bodyStart = begin.index + begin[0].length;
      const endAt = out.indexOf('-----END ', bodyStart);
      inPem = endAt < 0;
      pemCounted = false;
      if (endAt >= 0 && out.slice(bodyStart, endAt) !== REDACTED) {
        out = out.slice(0, bodyStart) + REDACTED + out.slice(endAt);
        redactions++;
      }
    }
    return out + cr;
  });
  return { text: lines.join('\n'), redactions };
}
