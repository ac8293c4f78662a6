/**
 * What an API key is made of, and how it is kept.
 *
 * A key (spelled as api-key-format.ts says) is shown once. Only two things about it are stored: its prefix,
 * which people see in listings and which finds the row, and its hash.
 *
 * The hash is HMAC-SHA256 keyed with a per-installation secret, not a slow hash such as scrypt. Slow hashes
 * protect guessable passwords; a key with 192 random bits cannot be guessed, so making each check cost
 * tens of milliseconds would only slow every request. The keyed hash adds what a plain digest lacks: a copy
 * of the database alone (a backup, a dump) cannot check a single candidate key, since the secret lives
 * outside it, in a file of its own or in `$MESHLENS_KEYS_SECRET`. (A PostgreSQL store keeps its secret in
 * the database unless `$MESHLENS_KEYS_SECRET` is set: see postgres/key-secret.ts.)
 */
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KEY_BYTES, KEY_MARK } from '../core/api-key-format.js';

const SECRET_SHAPE = /^(?:[0-9a-f]{2}){32,}$/;

export const newApiKey = (): string => `${KEY_MARK}${randomBytes(KEY_BYTES).toString('hex')}`;

export type KeyHasher = (key: string) => string;

export const keyHasher =
  (secret: Buffer): KeyHasher =>
  (key) =>
    createHmac('sha256', secret).update(key, 'utf8').digest('hex');

type Env = Readonly<Record<string, string | undefined>>;

/** `$MESHLENS_KEYS_SECRET` when it is set (at least 64 hex digits), else undefined. */
export function secretFromEnv(env: Env): Buffer | undefined {
  const fromEnv = env.MESHLENS_KEYS_SECRET?.trim();
  if (fromEnv === undefined || fromEnv === '') return undefined;
  if (!SECRET_SHAPE.test(fromEnv))
    throw new Error(
      'MESHLENS_KEYS_SECRET must be at least 64 hex digits (32 bytes); generate one with `openssl rand -hex 32`',
    );
  return Buffer.from(fromEnv, 'hex');
}

/** Whether a stored secret is spelt as one: at least 64 hex digits. */
export const isSecretText = (text: string): boolean => SECRET_SHAPE.test(text);

/**
 * The installation secret: `$MESHLENS_KEYS_SECRET` (at least 64 hex digits), else the file, created owner-only
 * with 32 random bytes the first time.
 */
export function installationSecret(file: string, env: Env = process.env): Buffer {
  const fromEnv = secretFromEnv(env);
  if (fromEnv) return fromEnv;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (!existsSync(file)) {
    // Written whole under another name, then linked into place: a reader never sees a half-written secret,
    // and of two processes creating it at once, the first link wins and both read that one.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    } finally {
      rmSync(draft, { force: true });
    }
  }
  chmodSync(file, 0o600);
  const text = readFileSync(file, 'utf8').trim();
  if (!isSecretText(text))
    throw new Error(
      `the key secret ${file} is damaged (expected 64 hex digits); without it no existing key can be checked`,
    );
  return Buffer.from(text, 'hex');
}
