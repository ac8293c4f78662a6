import { describe, expect, test } from 'vitest';
import { isStandIn, PEM_PRIVATE_KEY, VALUE_DETECTORS } from '../../src/trust/secret-detectors.js';
import { maskPropertyValue, maskSecretLines, maskSecrets, REDACTED } from '../../src/trust/secret-mask.js';
import { mayMatchMasked, maskedTextContains } from '../../src/trust/secret-search.js';
import { pemBody, randomChars } from '../helpers/planted-secrets.js';

const R = REDACTED;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const b64url = (json: object): string => Buffer.from(JSON.stringify(json)).toString('base64url');
const jwt = `${b64url({ alg: 'RS256' })}.${b64url({ sub: 'svc-orders', exp: 1900000000 })}.${randomChars(40, 43)}`;

/** [detector kind, line as written, line as shown]: the secrets are built at run time (see planted-secrets.ts). */
const detected: readonly (readonly [string, string, string])[] = [
  [
    'url-password',
    `DATABASE_URL=postgres://shop:${randomChars(1, 16)}@db:5432/shop`,
    `DATABASE_URL=postgres://shop:${R}@db:5432/shop`,
  ],
  [
    'url-password',
    `broker: "amqp://orders:p@${randomChars(2, 9)}@rabbit:5672/"`,
    `broker: "amqp://orders:${R}@rabbit:5672/"`,
  ],
  [
    'url-password',
    `jdbc:mysql://app:${randomChars(3, 12)}@mysql:3306/pay?useSSL=true`,
    `jdbc:mysql://app:${R}@mysql:3306/pay?useSSL=true`,
  ],
  [
    'url-password',
    `redis_url = "redis://:${randomChars(4, 20)}@cache:6379/0"`,
    `redis_url = "redis://:${R}@cache:6379/0"`,
  ],
  [
    'connection-string-password',
    `"Server=sql;Database=shop;User Id=sa;Password=${randomChars(5, 14)};"`,
    `"Server=sql;Database=shop;User Id=sa;Password=${R};"`,
  ],
  [
    'url-query-token',
    `fetch(\`https://api.shop.io/v1/orders?access_token=${randomChars(6, 30)}&page=2\`)`,
    `fetch(\`https://api.shop.io/v1/orders?access_token=${R}&page=2\`)`,
  ],
  [
    'azure-connection-string',
    `AZURE_STORAGE=DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=${randomChars(7, 86, B64)}==;EndpointSuffix=core.windows.net`,
    `AZURE_STORAGE=DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=${R};EndpointSuffix=core.windows.net`,
  ],
  [
    'azure-connection-string',
    `Endpoint=sb://shop.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=${randomChars(8, 43, B64)}=`,
    `Endpoint=sb://shop.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=${R}`,
  ],
  [
    'github-token',
    `const octokit = new Octokit({ auth: 'ghp_${randomChars(9, 36)}' });`,
    `const octokit = new Octokit({ auth: '${R}' });`,
  ],
  ['github-token', `GH=github_pat_${randomChars(10, 22)}_${randomChars(11, 59)}`, `GH=${R}`],
  ['gitlab-token', `GITLAB_CI=glpat-${randomChars(12, 20)}`, `GITLAB_CI=${R}`],
  ['stripe-key', `stripe = Stripe('sk_live_${randomChars(13, 24)}')`, `stripe = Stripe('${R}')`],
  ['stripe-key', `STRIPE=rk_test_${randomChars(14, 24)}`, `STRIPE=${R}`],
  ['stripe-webhook-secret', `endpoint: whsec_${randomChars(15, 32)}`, `endpoint: ${R}`],
  [
    'slack-token',
    `SLACK_BOT=xoxb-${randomChars(16, 12, '0123456789')}-${randomChars(17, 24)}`,
    `SLACK_BOT=${R}`,
  ],
  [
    'slack-webhook',
    `hook = "https://hooks.slack.com/services/T${randomChars(18, 8)}/B${randomChars(19, 8)}/${randomChars(20, 24)}"`,
    `hook = "https://hooks.slack.com/services/${R}"`,
  ],
  ['jwt', `const session = '${jwt}';`, `const session = '${R}';`],
  [
    'bearer-token',
    `curl -H "Authorization: Bearer ${randomChars(21, 40)}" https://api.shop.io`,
    `curl -H "Authorization: Bearer ${R}" https://api.shop.io`,
  ],
  [
    'bearer-token',
    `headers = {"Authorization": "Bearer ${jwt}"}`,
    `headers = {"Authorization": "Bearer ${R}"}`,
  ],
  [
    'basic-auth-header',
    `Authorization: Basic ${Buffer.from(`ci:${randomChars(22, 12)}`).toString('base64')}`,
    `Authorization: Basic ${R}`,
  ],
  [
    'aws-access-key-id',
    `aws configure set aws_access_key_id_for_ci AKIA${randomChars(23, 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`,
    `aws configure set aws_access_key_id_for_ci ${R}`,
  ],
  [
    'google-api-key',
    `<script src="https://maps.googleapis.com/maps/api/js?libraries=places&v=AIza${randomChars(24, 35)}"></script>`,
    `<script src="https://maps.googleapis.com/maps/api/js?libraries=places&v=${R}"></script>`,
  ],
  ['google-oauth-client-secret', `"client": "GOCSPX-${randomChars(25, 28)}"`, `"client": "${R}"`],
  ['npm-token', `NPM=npm_${randomChars(26, 36)}`, `NPM=${R}`],
  [
    'npmrc-auth',
    `//registry.npmjs.org/:_authToken=${randomChars(27, 36)}`,
    `//registry.npmjs.org/:_authToken=${R}`,
  ],
  ['openai-or-anthropic-key', `OPENAI=sk-proj-${randomChars(28, 48)}`, `OPENAI=${R}`],
  ['sendgrid-key', `SENDGRID=SG.${randomChars(29, 22)}.${randomChars(30, 43)}`, `SENDGRID=${R}`],
];

/** Lines that must come back exactly as written: hashes, ids, public keys, references, examples, prose. */
const visible: readonly (readonly [string, string])[] = [
  ['package-lock integrity', `      "integrity": "sha512-${randomChars(31, 86, B64)}==",`],
  ['yarn.lock integrity', `  integrity sha1-${randomChars(32, 27, B64)}=`],
  ['go.sum line', `github.com/google/uuid v1.6.0 h1:${randomChars(33, 43, B64)}=`],
  ['Cargo.lock checksum', `checksum = "${randomChars(34, 64, '0123456789abcdef')}"`],
  ['UUID', `const ORDER_ID = '3f2b6c1e-8a4d-4e0b-9c7a-2d5f1b8e6a90';`],
  ['git SHA', 'revision: 9fceb02d0ae598e95dc970b74767f19372d61af8'],
  [
    'image digest',
    'image: ghcr.io/shop/api@sha256:4a5f2b8c1d9e0f3a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a',
  ],
  ['Stripe publishable key (public by design)', `Stripe('pk_live_${randomChars(35, 24)}')`],
  ['AWS documentation example', 'aws_key_id_example: AKIAIOSFODNN7EXAMPLE'],
  ['example token that says so', 'GITHUB=ghp_EXAMPLEtokenFORdocs1234567890abcdef'],
  ['placeholder', 'STRIPE=sk_live_yourStripeKey0123456789'],
  ['filler', 'GITHUB=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
  ['reference in a URL', 'DATABASE_URL=postgres://shop:${DB_PASSWORD}@db:5432/shop'],
  ['template in a URL', 'url: "amqp://{{ .Values.user }}:{{ .Values.password }}@rabbit:5672"'],
  ['shell variable in a URL', 'psql "postgres://app:$PGPASSWORD@localhost/app"'],
  ['interpolation in a URL', 'dsn = f"postgres://{user}:{password}@{host}/shop"'],
  ['format directives in a URL', 'fmt.Sprintf("amqp://%s:%s@%s:5672/", user, pass, host)'],
  ['a kebab-case name', '<div className="sk-fading-circle-dot-2" />'],
  ['placeholder in a URL', 'Connect to postgres://user:<password>@host:5432/db'],
  ['URL with a user, no password', 'git clone https://deploy@github.com/shop/api.git'],
  ['scp-style git remote', 'git@github.com:shop/api.git'],
  ['URL with a port', 'url: http://localhost:8080/health'],
  ['bearer built in code', "headers: { Authorization: 'Bearer ' + token },"],
  ['bearer template', 'Authorization: `Bearer ${token}`'],
  ['bearer placeholder', 'curl -H "Authorization: Bearer <token>"'],
  ['bearer in prose', 'Requests use Bearer authentication with short-lived tokens.'],
  ['a query token from a variable', 'const url = `/ws?token=${session.token}`;'],
  ['base64 image', `<img src="data:image/png;base64,${randomChars(36, 60, B64)}">`],
  ['one base64 JSON part, not a JWT', `const header = '${b64url({ alg: 'none', typ: 'JWT' })}';`],
  ['empty password in a connection string', '"Server=sql;User Id=sa;Password=;"'],
];

describe('the detector table', () => {
  test('has one entry per kind, each a global pattern that says which part is the secret', () => {
    const kinds = [...VALUE_DETECTORS.map((d) => d.kind), PEM_PRIVATE_KEY.kind];
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const required of [
      'url-password',
      'github-token',
      'stripe-key',
      'slack-token',
      'jwt',
      'bearer-token',
      'aws-access-key-id',
      'google-api-key',
      'azure-connection-string',
      'npm-token',
      'pem-private-key',
    ]) {
      expect(kinds).toContain(required);
    }
    for (const detector of VALUE_DETECTORS) {
      expect(detector.pattern.global, detector.kind).toBe(true);
      expect(detector.pattern.source.includes('(?<secret>'), detector.kind).toBe(detector.part === 'secret');
      expect(detector.cue.length, detector.kind).toBeGreaterThan(0);
    }
  });

  test('every kind of the table is exercised below', () => {
    const exercised = new Set(detected.map(([kind]) => kind));
    expect(VALUE_DETECTORS.map((d) => d.kind).filter((kind) => !exercised.has(kind))).toEqual([]);
  });

  test.each(detected)('masks %s: %s', (_kind, input, expected) => {
    expect(maskSecrets(input)).toEqual({ text: expected, redactions: 1 });
    // A second pass finds nothing more: the marker is never taken for a secret.
    expect(maskSecrets(expected)).toEqual({ text: expected, redactions: 0 });
  });

  test.each(visible)('keeps %s', (_what, input) => {
    expect(maskSecrets(input)).toEqual({ text: input, redactions: 0 });
  });

  test('the stand-in rule: references, example words in one casing, and filler', () => {
    const standIns = [
      '${TOKEN}',
      '{{ .Values.token }}',
      '<token>',
      'AKIAIOSFODNN7EXAMPLE',
      'Sample1234',
      'ghp_00000000abc',
    ];
    expect(standIns.filter((value) => !isStandIn(value))).toEqual([]);
    expect(isStandIn(randomChars(41, 40))).toBe(false);
    expect(isStandIn('eXaMpLe0123456789')).toBe(false);
  });
});

describe('private keys over several lines', () => {
  test('a BEGIN line masked by name still opens the key, and the body is masked', () => {
    const body = pemBody(3, 3);
    const input = [
      'PRIVATE_KEY="-----BEGIN PRIVATE KEY-----',
      ...body,
      '-----END PRIVATE KEY-----"',
      'PORT=8080',
    ];
    const out = maskSecrets(input.join('\n'));
    expect(out.text.split('\n')).toEqual([
      `PRIVATE_KEY="${R}`,
      R,
      R,
      R,
      '-----END PRIVATE KEY-----"',
      'PORT=8080',
    ]);
    expect(out.redactions).toBe(2);
  });

  test('a key in string pieces, a PGP block and one without END: every base64 run is masked', () => {
    const [a, b] = pemBody(4, 2);
    const concatenated = [
      "const key = '-----BEGIN EC PRIVATE KEY-----\\n' +",
      `  '${a}\\n' +`,
      "  '-----END EC PRIVATE KEY-----';",
    ];
    expect(maskSecrets(concatenated.join('\n')).text.split('\n')).toEqual([
      concatenated[0],
      `  '${R}\\n' +`,
      concatenated[2],
    ]);
    const pgp = [
      '-----BEGIN PGP PRIVATE KEY BLOCK-----',
      '',
      `${b}`,
      '=Ab1c',
      '-----END PGP PRIVATE KEY BLOCK-----',
    ];
    expect(maskSecrets(pgp.join('\n')).text.split('\n')).toEqual([pgp[0], '', R, R, pgp[4]]);
    const cut = ['-----BEGIN OPENSSH PRIVATE KEY-----', `${a}`, `${b}`];
    expect(maskSecrets(cut.join('\n')).text.split('\n')).toEqual([cut[0], R, R]);
  });

  test('the lines shown count each key once, single-line secrets each', () => {
    const input = [
      `url: postgres://app:${randomChars(50, 12)}@db/app`,
      '-----BEGIN RSA PRIVATE KEY-----',
      ...pemBody(5, 3),
      '-----END RSA PRIVATE KEY-----',
      `token: ${randomChars(51, 20)}`,
    ];
    const masked = maskSecretLines(input);
    expect(masked.redactions).toBe(3);
    expect(masked.redactionsOn([2, 3, 4])).toBe(1);
    expect(masked.redactionsOn([0, 6])).toBe(2);
    expect(masked.redactionsOn([1, 5])).toBe(0);
  });
});

describe('config values and masked search', () => {
  test('a config value is masked by value under any key', () => {
    const pw = randomChars(52, 14);
    expect(maskPropertyValue('spring.datasource.url', `jdbc:postgresql://app:${pw}@db/app`)).toEqual({
      value: `jdbc:postgresql://app:${R}@db/app`,
      masked: true,
    });
  });

  test('a piece of a masked secret is never found; the marker and the text around it are', () => {
    const pw = randomChars(53, 16);
    const text = `first line\nDATABASE_URL=postgres://shop:${pw}@db:5432/shop\n`;
    expect(mayMatchMasked(text.toLowerCase(), pw.slice(4, 12).toLowerCase())).toBe(true);
    expect(maskedTextContains(text, pw.slice(4, 12).toLowerCase())).toBe(false);
    expect(maskedTextContains(text, `shop:${pw.slice(0, 3)}`.toLowerCase())).toBe(false);
    expect(maskedTextContains(text, 'shop:[redacted_secret]@db')).toBe(true);
    expect(maskedTextContains('no secrets here', 'redacted')).toBe(false);
    // Not in the raw text, yet in the masked one: the cheap test must not rule it out.
    expect(mayMatchMasked(text.toLowerCase(), 'cted_sec')).toBe(true);
    expect(mayMatchMasked(text.toLowerCase(), 'nowhere')).toBe(false);
    expect(mayMatchMasked(text.toLowerCase(), 'items[0]')).toBe(false);
    expect(mayMatchMasked(text.toLowerCase(), 'shop:[red')).toBe(true);
    expect(mayMatchMasked(text.toLowerCase(), 'et]@db')).toBe(true);
  });
});
