import { describe, expect, test } from 'vitest';
import { REDACTED, isSecretKey, maskPropertyValue, maskSecrets } from '../../src/trust/secret-mask.js';

const R = REDACTED;

/** [what, input line, expected line]: the expected line equals the input for a non-secret. */
const masked: readonly (readonly [string, string, string])[] = [
  ['TS const, quotes and `;` kept', `const password = 'hunter2';`, `const password = '${R}';`],
  [
    'TS annotated field',
    `private readonly token: string = 'abc123';`,
    `private readonly token: string = '${R}';`,
  ],
  ['TS object property, trailing comma kept', `  apiKey: "sk-live-123",`, `  apiKey: "${R}",`],
  ['JSON pair', `  "apiKey": "abc",`, `  "apiKey": "${R}",`],
  [
    'JSON one-line object, only the secret',
    `{"user":"bob","password":"pw1"}`,
    `{"user":"bob","password":"${R}"}`,
  ],
  ['JSON number', `  "pin_password": 123456,`, `  "pin_password": ${R},`],
  ['properties', `spring.datasource.password=s3cr3t`, `spring.datasource.password=${R}`],
  ['YAML unquoted', `  password: s3cr3t`, `  password: ${R}`],
  ['YAML number is masked', `redis.password: 123456`, `redis.password: ${R}`],
  ['YAML trailing comment kept', `  client_secret: abc # prod`, `  client_secret: ${R} # prod`],
  ['YAML list item', `- db_password: "x1"`, `- db_password: "${R}"`],
  ['Spring default of a reference', `password: \${DB_PASSWORD:hunter2}`, `password: \${DB_PASSWORD:${R}}`],
  ['shell default of a reference', `TOKEN="\${API_TOKEN:-dev-token}"`, `TOKEN="\${API_TOKEN:-${R}}"`],
  ['Go short declaration', `token := "ghp_abc"`, `token := "${R}"`],
  ['Go var with type', `var dbPassword string = "pw"`, `var dbPassword string = "${R}"`],
  ['Python keyword argument', `connect(host="db", password="pw")`, `connect(host="db", password="${R}")`],
  ['Python annotated', `password: str = "pw"`, `password: str = "${R}"`],
  [
    'Java constant',
    `private static final String API_KEY = "k-1";`,
    `private static final String API_KEY = "${R}";`,
  ],
  ['PHP array', `'password' => 'pw',`, `'password' => '${R}',`],
  ['.env with export', `export AWS_SECRET_ACCESS_KEY=wJalr`, `export AWS_SECRET_ACCESS_KEY=${R}`],
  [
    'literal fallback after an env lookup',
    `const secret = process.env.JWT_SECRET ?? 'dev-secret';`,
    `const secret = process.env.JWT_SECRET ?? '${R}';`,
  ],
  ['getenv default', `token = os.getenv("API_TOKEN", "dev-token")`, `token = os.getenv("API_TOKEN", "${R}")`],
  ['command-line flag', `mysql -u root --password=hunter2 db`, `mysql -u root --password=${R} db`],
  ['commented-out config', `# password=hunter2`, `# password=${R}`],
  ['XML element', `<password>pw</password>`, `<password>${R}</password>`],
  ['camelCase signing key', `signingKey: 'abc'`, `signingKey: '${R}'`],
  ['dotted .key with api', `stripe.api.key=sk_live_1`, `stripe.api.key=${R}`],
  ['k8s tls.key', `  tls.key: LS0tLS1CRUdJTg==`, `  tls.key: ${R}`],
];

const intact: readonly (readonly [string, string])[] = [
  ['Spring reference', 'password: ${DB_PASSWORD}'],
  ['empty default', 'password: ${DB_PASSWORD:}'],
  ['env-var lookup by name', 'token = os.environ["API_TOKEN"]'],
  ['env member path', 'const secret = process.env.JWT_SECRET;'],
  ['env-var name as a quoted value', `jwtSecretEnv: 'JWT_SECRET'`],
  ['env-var name under a secret key', `secret: 'JWT_SECRET',`],
  ['enum member equal to its name', `  PASSWORD = 'PASSWORD',`],
  ['enum member, other casing', `  Password = 'password',`],
  ['DTO definite assignment', '  password!: string;'],
  ['readonly declaration', '  private readonly token: string'],
  ['field in a type', '  secret: string,'],
  ['optional field in a type', '  apiKey?: string | undefined;'],
  ['Python dataclass field', '    password: Optional[str] = None'],
  ['object opening', '  credentials: {'],
  ['YAML block opening', 'credentials:'],
  ['function call', 'token = getToken()'],
  ['call with an argument', 'const token = this.jwt.sign(payload);'],
  ['empty string', `const password = '';`],
  ['boolean', 'password: true'],
  ['null', '  "password": null,'],
  ['None', 'password = None'],
  ['identifier in an object literal', '  password: hashedPassword,'],
  ['Go struct tag', 'Password string `json:"password"`'],
  ['comparison', `if (password === 'admin') {`],
  ['destructuring', 'const { password } = req.body;'],
  ['arrow function', 'tokens.map((token) => token.trim());'],
  ['qualified key: length', 'password.min-length: 8'],
  ['qualified key: expiry', 'jwt.expiration: 3600'],
  ['qualified key: url', `tokenUrl: 'https://auth.example.com/token'`],
  ['qualified key: file', 'private_key_path: /etc/ssl/private.pem'],
  ['not a secret key', `maxTokens: 4096`],
  ['plain `key`', `key: 'user-id'`],
  ['primary key', `primary_key = 'id'`],
  ['UI label', `  "forgotPassword": "Forgot your password?",`],
  ['prose in a comment', '# token: the token used to call the API'],
  ['Helm template', 'password: {{ .Values.db.password }}'],
  ['YAML alias', 'password: *default_password'],
  ['URL with a port', 'url: http://localhost:8080'],
  ['already masked', `const password = '${R}';`],
];

describe('maskSecrets, table', () => {
  test('the table is big enough and balanced', () => {
    expect(masked.length + intact.length).toBeGreaterThanOrEqual(30);
    expect(intact.length).toBeGreaterThanOrEqual(masked.length);
  });

  test.each(masked)('masks: %s', (_what, input, expected) => {
    const result = maskSecrets(input);
    expect(result.text).toBe(expected);
    expect(result.redactions).toBe(1);
  });

  test.each(intact)('keeps: %s', (_what, input) => {
    expect(maskSecrets(input)).toEqual({ text: input, redactions: 0 });
  });
});

describe('maskSecrets, multi-line', () => {
  test('line count and order never change, CRLF kept', () => {
    const input = ['a: 1', 'password: x', '', 'token = "y"', 'b: 2'].join('\r\n');
    const out = maskSecrets(input);
    expect(out.redactions).toBe(2);
    expect(out.text.split('\r\n')).toEqual(['a: 1', `password: ${R}`, '', `token = "${R}"`, 'b: 2']);
  });

  test('a YAML block scalar under a secret key is masked line by line', () => {
    const input = [
      'tls:',
      '  private_key: |',
      '    -----BEGIN PRIVATE KEY-----',
      '    MIIEvQIBADANBg',
      '',
      '  port: 443',
    ];
    const out = maskSecrets(input.join('\n'));
    expect(out.text.split('\n')).toEqual([
      'tls:',
      '  private_key: |',
      `    ${R}`,
      `    ${R}`,
      '',
      '  port: 443',
    ]);
    expect(out.redactions).toBe(1);
  });

  test('an encrypted PEM body is masked, its END line kept, and a second pass changes nothing', () => {
    const input = [
      'k: |-',
      '-----BEGIN ENCRYPTED PRIVATE KEY-----',
      'MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI',
      'Zm9v',
      '-----END ENCRYPTED PRIVATE KEY-----',
    ];
    const once = maskSecrets(input.join('\n'));
    expect(once.text.split('\n')).toEqual([input[0], input[1], R, R, input[4]]);
    expect(once.redactions).toBe(1);
    expect(maskSecrets(once.text)).toEqual({ text: once.text, redactions: 0 });
  });

  test('a PEM private key body is masked whatever the key', () => {
    const input = [
      'const pem = `',
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIEowIBAAKCAQEAx1',
      '-----END RSA PRIVATE KEY-----',
      '`;',
    ];
    const out = maskSecrets(input.join('\n'));
    expect(out.text.split('\n')).toEqual([input[0], input[1], R, input[3], input[4]]);
    expect(out.redactions).toBe(1);
  });

  test('a Kubernetes env entry: the `name:` line decides about the `value:` line', () => {
    const input = [
      'env:',
      '  - name: DB_PASSWORD',
      '    value: hunter2',
      '  - name: LOG_LEVEL',
      '    value: debug',
    ];
    const out = maskSecrets(input.join('\n'));
    expect(out.text.split('\n')).toEqual([...input.slice(0, 2), `    value: ${R}`, ...input.slice(3)]);
    expect(out.redactions).toBe(1);
  });

  test('a PEM literal under a secret key is masked whole, although it has spaces and says PRIVATE KEY', () => {
    const input = 'private_key = "-----BEGIN PRIVATE KEY-----\\nMIIEvQ\\n-----END PRIVATE KEY-----\\n"';
    expect(maskSecrets(input)).toEqual({ text: `private_key = "${R}"`, redactions: 1 });
  });

  test('masking is idempotent', () => {
    const input = [`const password = 'hunter2';`, 'api_key=abc', 'password: ${P:dflt}'].join('\n');
    const once = maskSecrets(input);
    expect(once.redactions).toBe(3);
    expect(maskSecrets(once.text)).toEqual({ text: once.text, redactions: 0 });
  });

  test('the secret never survives anywhere in the output', () => {
    const input = `export const config = { db: { user: 'app', password: 'Tr0ub4dor&3' }, apiKey: "zx-81" };`;
    const out = maskSecrets(input).text;
    expect(out).not.toContain('Tr0ub4dor');
    expect(out).not.toContain('zx-81');
    expect(out).toContain(`user: 'app'`);
  });
});

describe('isSecretKey', () => {
  test.each([
    'password',
    'dbPassword',
    'DB_PASSWORD',
    'passwd',
    'db_pwd',
    'smtp_pass',
    'client_secret',
    'clientSecret',
    'accessToken',
    'auth_token',
    'refresh-token',
    'credentials',
    'passphrase',
    'private_key',
    'privateKey',
    'apiKey',
    'APIKey',
    'api-key',
    'x-api-key',
    'access_key',
    'signing_key',
    'encryption.key',
    'jwt',
    'user_jwt',
    'spring.datasource.password',
    'aws_access_key_id',
    '$password',
    '--password',
  ])('%s is secret', (key) => expect(isSecretKey(key)).toBe(true));

  test.each([
    'key',
    'primary_key',
    'cache_key',
    'monkey',
    'auth',
    'authorization',
    'author',
    'tokens',
    'maxTokens',
    'tokenizer',
    'pass_through',
    'password_min_length',
    'passwordPolicy',
    'secretName',
    'tokenUrl',
    'jwt_issuer',
    'jwt.expiration',
    'password.encoder',
    'private',
    'private_key_file',
    'apiKeyHeader',
    'username',
    '',
  ])('%s is not secret', (key) => expect(isSecretKey(key)).toBe(false));
});

describe('maskPropertyValue', () => {
  test('masks a literal under a secret key, numbers included', () => {
    expect(maskPropertyValue('spring.datasource.password', 's3cr3t')).toEqual({ value: R, masked: true });
    expect(maskPropertyValue('redis.password', '1234')).toEqual({ value: R, masked: true });
    expect(maskPropertyValue('app.jwt.secret', 'has spaces in it')).toEqual({ value: R, masked: true });
  });

  test('masks only the default of a reference', () => {
    expect(maskPropertyValue('db.password', '${DB_PASSWORD:changeme}')).toEqual({
      value: `\${DB_PASSWORD:${R}}`,
      masked: true,
    });
  });

  test.each([
    ['spring.datasource.password', '${DB_PASSWORD}'],
    ['spring.datasource.password', ''],
    ['spring.datasource.password', 'false'],
    ['spring.datasource.url', 'jdbc:postgresql://db/app'],
    ['jwt.expiration', '3600'],
    ['app.secret', 'APP_SECRET'],
  ])('keeps %s = %s', (key, value) => {
    expect(maskPropertyValue(key, value)).toEqual({ value, masked: false });
  });
});
