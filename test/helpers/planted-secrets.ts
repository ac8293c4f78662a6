/**
 * Secrets to plant in test inputs, built at run time by a seeded generator: a realistic token written out in
 * the repository would be flagged by code hosts' secret scanners, and here it only has to look real to the
 * detectors. Same seed, same values, on every run.
 */
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BASE64 = `${ALNUM}+/`;

/** `length` characters of `alphabet`, from a linear congruential generator seeded with `seed`. */
export function randomChars(seed: number, length: number, alphabet = ALNUM): string {
  let state = seed >>> 0;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out += alphabet[(state >>> 8) % alphabet.length];
  }
  return out;
}

const b64url = (json: object): string => Buffer.from(JSON.stringify(json)).toString('base64url');

/** One planted secret: its kind (a detector's name), the secret itself, and a piece of it to search for. */
export interface Planted {
  readonly kind: string;
  readonly secret: string;
  /** Eight characters from the middle of the secret: what an oracle attack would probe. */
  readonly probe: string;
}

const planted = (kind: string, secret: string): Planted => {
  const middle = Math.max(0, Math.floor(secret.length / 2) - 4);
  return { kind, secret, probe: secret.slice(middle, middle + 8) };
};

/** The secrets by name; `kind` is the detector expected to find each one. */
export const SECRETS = {
  dbPassword: planted('url-password', randomChars(1, 18)),
  brokerPassword: planted('url-password', randomChars(2, 16)),
  githubClassic: planted('github-token', `ghp_${randomChars(3, 36)}`),
  githubFine: planted('github-token', `github_pat_${randomChars(4, 22)}_${randomChars(5, 59)}`),
  stripe: planted('stripe-key', `sk_live_${randomChars(6, 24)}`),
  slackBot: planted('slack-token', `xoxb-${randomChars(7, 12, '0123456789')}-${randomChars(8, 24)}`),
  slackHook: planted('slack-webhook', `T${randomChars(9, 8)}/B${randomChars(10, 8)}/${randomChars(11, 24)}`),
  jwt: planted(
    'jwt',
    `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: randomChars(12, 10), iat: 1700000000 })}.${randomChars(13, 43)}`,
  ),
  bearer: planted('bearer-token', randomChars(14, 40)),
  awsKeyId: planted('aws-access-key-id', `AKIA${randomChars(15, 16, UPPER_DIGITS)}`),
  googleApi: planted('google-api-key', `AIza${randomChars(16, 35)}`),
  azureAccountKey: planted('azure-connection-string', `${randomChars(17, 86, BASE64)}==`),
  npm: planted('npm-token', `npm_${randomChars(18, 36)}`),
  stripeWebhook: planted('stripe-webhook-secret', `whsec_${randomChars(19, 32)}`),
  springPassword: planted('name', randomChars(20, 14)),
  docsPassword: planted('url-password', randomChars(21, 15)),
  docsToken: planted('github-token', `ghp_${randomChars(22, 36)}`),
  minifiedToken: planted('github-token', `ghp_${randomChars(23, 36)}`),
} as const;

/** PEM bodies: lines of base64, each long enough to be a probe target on its own. */
export const pemBody = (seed: number, lines = 4): string[] =>
  Array.from({ length: lines }, (_, i) => randomChars(seed * 100 + i, 64, BASE64));
