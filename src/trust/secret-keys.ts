/**
 * Which config keys and variable names hold a secret. A key is split into words (`dbPassword`, `client_secret`,
 * `jwt.signing.key`); the last dotted segment decides, and a trailing qualifier (`password_min_length`) makes it
 * a key *about* the secret rather than the secret itself.
 */

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

function splitWords(segment: string): string[] {
  return segment
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** `spring.datasource.password`, `os.environ["X"]`, `"apiKey"` → the dotted or bracketed parts, unquoted. */
export const segmentsOf = (key: string): string[] =>
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
