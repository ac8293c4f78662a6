/**
 * A small workspace for the code modes: planted secrets, a file with hundreds of declarations, a long body,
 * a minified file the guard rejects, and generated code beside hand-written code.
 */
import { SECRETS } from './planted-secrets.js';
import { tempDir, writeFiles } from './engine.js';

export const LAB_TOKEN = SECRETS.githubClassic;
export const LAB_PASSWORD = SECRETS.dbPassword;

/** Declarations in `app/many.ts`. */
export const MANY = 300;
/** Comment lines saying `tick` in `app/ticks.ts`: more than a grep counts. */
export const TICKS = 10_050;
/** Lines of `longBody` in `app/long.ts`, its braces included. */
export const LONG_LINES = 602;

export function codeLab(): string {
  const dir = tempDir('meshlens-code-lab-');
  const many = Array.from(
    { length: MANY },
    (_, i) => `export function handler${i}(input: string): string {\n  return input + '${i}';\n}\n`,
  ).join('');
  const long = `export function longBody(): number {\n  let total = 0;\n${Array.from(
    { length: LONG_LINES - 4 },
    (_, i) => `  total += ${i}; // step ${i} of the long body`,
  ).join('\n')}\n  return total;\n}\n`;
  writeFiles(dir, {
    'meshlens.toml': '[workspace]\nroots = ["app"]\n',
    'app/config.ts': [
      `export const GITHUB_TOKEN = "${LAB_TOKEN.secret}";`,
      '',
      'export function databaseUrl(): string {',
      `  const url = "postgres://shop:${LAB_PASSWORD.secret}@db:5432/shop";`,
      '  return url;',
      '}',
      '',
    ].join('\n'),
    'app/many.ts': many,
    'app/long.ts': long,
    'app/static/app.min.js': `var a=${JSON.stringify('x'.repeat(3000))};\n`,
    'app/src/domain/orders.ts': 'export interface Order {\n  id: string;\n}\n',
    'app/gen/orders.ts': 'export interface GeneratedOrder {\n  id: string;\n}\n',
    'app/notes.md': '# Notes\n\nTODO: nothing here mentions a token.\n',
    'app/ticks.ts': `${'// tick\n'.repeat(TICKS)}export const ticks = ${TICKS};\n`,
  });
  return dir;
}
