/**
 * Secrets recognised by their value, whatever they are assigned to: credentials inside URLs, vendor tokens
 * with a known prefix, JWTs, `Authorization` headers, connection strings and PEM private keys. One entry per
 * kind, as data: the kind's name, the pattern that finds it, and which part of a match is the secret.
 *
 * A value a detector finds stays visible when it only stands for a secret (see `isStandIn`): a reference or
 * template (`${DB_PASSWORD}`, `{{ .Values.token }}`, `<token>`), a value that says it is an example
 * (`AKIAIOSFODNN7EXAMPLE`, `sk_live_your_key_here`), or filler (`ghp_xxxxxxxx…`). Hashes (lockfile
 * integrity, go.sum, git SHAs, image digests) and UUIDs have no detector: none of them carries a vendor
 * prefix, a `user:password@` or a `key=` in front of it.
 */

/** `match`: the whole match is the secret. `secret`: only the pattern's named group `secret` is. */
export type SecretPart = 'match' | 'secret';

export interface ValueDetector {
  readonly kind: string;
  /** Global; with `part: 'secret'` it has a named group `secret`. */
  readonly pattern: RegExp;
  readonly part: SecretPart;
  /** Words the line must contain (lower case) for the pattern to be tried at all: a cheap pre-filter. */
  readonly cue: readonly string[];
  /** Extra condition on the secret: weak prefixes (`Bearer `, `sk-`) also need a digit in the value. */
  readonly needsDigit?: boolean;
}

/** A secret spread over lines between two markers; everything between them is masked. */
export interface BlockDetector {
  readonly kind: string;
  readonly begin: RegExp;
  readonly end: RegExp;
  readonly part: 'lines between the markers';
}

/** Characters a token may hold, for the patterns below. */
const TOKEN = String.raw`[A-Za-z0-9_-]`;

export const VALUE_DETECTORS: readonly ValueDetector[] = [
  {
    // postgres://app:pw@db, amqp://guest:guest@rabbit, jdbc:mysql://u:p@h, redis://:pw@cache. The password
    // may hold `@`: the secret runs to the last `@` that a host follows.
    kind: 'url-password',
    pattern: /\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s:@/'"`<>]*:(?<secret>[^\s/'"`<>]+)@(?=[^\s@/'"`<>])/gi,
    part: 'secret',
    cue: ['://'],
  },
  {
    // `?password=…`, `;Password=…` in ADO.NET/JDBC connection strings, `&pwd=…`: a `key=value` with no
    // spaces around `=`, which prose and code assignments (`password = x`) rarely are.
    kind: 'connection-string-password',
    pattern: /(?<![\w.-])(?:password|passwd|pwd)=(?<secret>[^\s;&'"`]+)/gi,
    part: 'secret',
    cue: ['pw', 'pass'],
  },
  {
    kind: 'url-query-token',
    pattern: /[?&](?:access_token|api_?key|apikey|client_secret|token|secret|sig)=(?<secret>[^\s&#'"`]+)/gi,
    part: 'secret',
    cue: ['token=', 'key=', 'secret=', 'sig='],
  },
  {
    kind: 'azure-connection-string',
    pattern:
      /\b(?:AccountKey|SharedAccessKey|SharedSecretValue|SharedAccessSignature)\s*=\s*(?<secret>[^\s;'"`]+)/gi,
    part: 'secret',
    cue: ['accountkey', 'sharedaccess', 'sharedsecret'],
  },
  {
    kind: 'github-token',
    pattern: new RegExp(String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_\w{20,255})`, 'g'),
    part: 'match',
    cue: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  },
  {
    kind: 'gitlab-token',
    pattern: new RegExp(String.raw`\bgl(?:pat|dt|rt|ptt)-${TOKEN}{20,}`, 'g'),
    part: 'match',
    cue: ['glpat-', 'gldt-', 'glrt-', 'glptt-'],
  },
  {
    // Secret and restricted keys; publishable `pk_…` keys are public by design and stay.
    kind: 'stripe-key',
    pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/g,
    part: 'match',
    cue: ['k_live_', 'k_test_'],
  },
  {
    kind: 'stripe-webhook-secret',
    pattern: /\bwhsec_[A-Za-z0-9]{20,}/g,
    part: 'match',
    cue: ['whsec_'],
  },
  {
    kind: 'slack-token',
    pattern: /\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/g,
    part: 'match',
    cue: ['xox', 'xapp-'],
  },
  {
    kind: 'slack-webhook',
    pattern: /\bhooks\.slack\.com\/(?:services|workflows|triggers)\/(?<secret>[A-Za-z0-9_/-]{16,})/g,
    part: 'secret',
    cue: ['hooks.slack.com'],
  },
  {
    // header.payload.signature, both JSON parts base64url of `{"`.
    kind: 'jwt',
    pattern: new RegExp(String.raw`\beyJ${TOKEN}{8,}\.eyJ${TOKEN}{8,}\.${TOKEN}*`, 'g'),
    part: 'match',
    cue: ['eyj'],
  },
  {
    // `Authorization: Bearer …`, `-H "Bearer …"`, `{ Authorization: 'Bearer …' }`. A digit tells a token
    // from prose ("Bearer authentication").
    kind: 'bearer-token',
    pattern: /\bBearer\s+(?<secret>[A-Za-z0-9._~+/-]{12,}=*)/gi,
    part: 'secret',
    cue: ['bearer'],
    needsDigit: true,
  },
  {
    kind: 'basic-auth-header',
    pattern: /\bAuthorization["']?\s*[:=,]\s*["']?Basic\s+(?<secret>[A-Za-z0-9+/]{8,}={0,2})/gi,
    part: 'secret',
    cue: ['basic'],
  },
  {
    kind: 'aws-access-key-id',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
    part: 'match',
    cue: ['akia', 'asia', 'abia', 'acca'],
  },
  {
    kind: 'google-api-key',
    pattern: new RegExp(String.raw`\bAIza${TOKEN}{35}`, 'g'),
    part: 'match',
    cue: ['aiza'],
  },
  {
    kind: 'google-oauth-client-secret',
    pattern: new RegExp(String.raw`\bGOCSPX-${TOKEN}{20,}`, 'g'),
    part: 'match',
    cue: ['gocspx-'],
  },
  {
    kind: 'npm-token',
    pattern: /\bnpm_[A-Za-z0-9]{36}\b/g,
    part: 'match',
    cue: ['npm_'],
  },
  {
    // .npmrc: `//registry.npmjs.org/:_authToken=…`, `:_auth=…`, `:_password=…`.
    kind: 'npmrc-auth',
    pattern: /:_(?:authToken|auth|password)\s*=\s*(?<secret>[^\s'"`]+)/g,
    part: 'secret',
    cue: [':_'],
  },
  {
    kind: 'openai-or-anthropic-key',
    // At least 32 characters: a kebab-case name starting with `sk-` is rarely that long.
    pattern: new RegExp(String.raw`\bsk-(?:proj-|ant-(?:api|admin)\d\d-)?${TOKEN}{32,}`, 'g'),
    part: 'match',
    cue: ['sk-'],
    needsDigit: true,
  },
  {
    kind: 'sendgrid-key',
    pattern: new RegExp(String.raw`\bSG\.${TOKEN}{16,}\.${TOKEN}{16,}`, 'g'),
    part: 'match',
    cue: ['sg.'],
  },
];

/** PEM and PGP private keys: the marker lines stay, so a reader sees what was there. */
export const PEM_PRIVATE_KEY: BlockDetector = {
  kind: 'pem-private-key',
  begin: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/,
  end: /-----END /,
  part: 'lines between the markers',
};

/**
 * A value that stands for a secret instead of being one: a reference or interpolation (`${X}`, `$X`, `{x}`,
 * `#{x}`, `%s`, `%(x)s`, `%X%`), a template (`{{ … }}`, `{% … %}`), a placeholder (`<token>`, `****`, `...`).
 */
const REFERENCE =
  /\$\{|\$\(|\{[\w.\s-]*\}|\{\{|\{%|#\{|<[^>]*>|^\$[A-Za-z_]\w*$|^%[A-Za-z_]\w*%$|^%\(?\w*\)?[sd]$|^\*+$|^\.{3}|…/;
/** Words an example value carries, as its author wrote them: all lower, all upper or capitalised. */
const EXAMPLE_WORDS = ['example', 'sample', 'dummy', 'placeholder', 'changeme', 'notreal', 'fake', 'your'];
const EXAMPLE = new RegExp(
  EXAMPLE_WORDS.flatMap((w) => [w, w.toUpperCase(), w[0]?.toUpperCase() + w.slice(1)]).join('|'),
);
/** Eight of one character in a row never happen in a random token; they are filler (`xxxxxxxx`, `00000000`). */
const FILLER = /(.)\1{7}/;

/**
 * Whether a detected value only stands for a secret and stays visible: a reference or template, an example
 * value that says so, or filler. Real tokens are random: the chance that one spells an example word in one
 * casing is far below one in ten thousand.
 */
export function isStandIn(value: string): boolean {
  return REFERENCE.test(value) || EXAMPLE.test(value) || FILLER.test(value);
}
