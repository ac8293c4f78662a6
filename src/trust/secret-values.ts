/**
 * Which values bound to a secret key are the secret: a literal is masked; a reference (`${DB_PASSWORD}`), an
 * env-var name, a UI label, a type annotation or a code expression only names one and stays.
 */
import { isSecretKey, segmentsOf } from './secret-keys.js';

export const REDACTED = '[REDACTED_SECRET]';

/** Type names: `password: string` and `var password string` declare, they do not assign. */
export const TYPE_NAMES = new Set(
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
export function maskValue(key: string, value: string): { value: string; count: number } | undefined {
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
export function isTypeExpression(value: string): boolean {
  return value.split(/[|&]/).every((part) => {
    const match = /^(?:readonly\s+)?([A-Za-z_][\w.]*)\s*(?:<.*>|\[.*\])?(?:\[\])*\??$/.exec(part.trim());
    return match !== null && TYPE_NAMES.has(match[1] ?? '');
  });
}

export function isCodeValue(value: string, trailingSeparator: boolean): boolean {
  // `password: someVar,` is an object literal; `password: hunter2` is YAML.
  return CODE_VALUE.test(value) || isTypeExpression(value) || (trailingSeparator && IDENTIFIER.test(value));
}
