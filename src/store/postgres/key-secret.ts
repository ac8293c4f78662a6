/**
 * The secret the key hashes are keyed with, shared by every replica on one database. By default it lives in
 * the database itself (table `key_secret`): the first replica or `keys create` to need it draws 32 random
 * bytes and inserts them; whoever comes second finds that row and uses it (one row, primary key 1, so the
 * race has one winner). With `$MESHLENS_KEYS_SECRET` set, the database keeps only the secret's fingerprint,
 * and a dump of it alone cannot check a key; every replica then needs the same value, which the fingerprint
 * checks at start-up.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { isSecretText, secretFromEnv } from '../key-material.js';
import type { PostgresPool } from './pool.js';

type Env = Readonly<Record<string, string | undefined>>;

export class KeySecretError extends Error {
  override readonly name = 'KeySecretError';
}

/** Tells two secrets apart without revealing either. */
const fingerprintOf = (secret: Buffer): string =>
  createHmac('sha256', secret).update('meshlens key secret fingerprint', 'utf8').digest('hex');

interface SecretRow {
  secret: string | null;
  fingerprint: string;
}

export async function sharedKeySecret(pool: PostgresPool, env: Env): Promise<Buffer> {
  const fromEnv = secretFromEnv(env);
  const drawn = fromEnv ?? randomBytes(32);
  await pool.query(
    `INSERT INTO key_secret (id, secret, fingerprint) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING`,
    [fromEnv ? null : drawn.toString('hex'), fingerprintOf(drawn)],
  );
  const [row] = await pool.query<SecretRow>('SELECT secret, fingerprint FROM key_secret WHERE id = 1');
  if (!row)
    throw new KeySecretError(`the key secret of ${pool.displayUrl} was not there right after it was written`);
  if (fromEnv) {
    if (row.fingerprint !== fingerprintOf(fromEnv))
      throw new KeySecretError(
        `MESHLENS_KEYS_SECRET is not the secret the keys in ${pool.displayUrl} were made with; ` +
          'set the same value on every replica and wherever keys are created, or unset it everywhere to use the one the database keeps',
      );
    return fromEnv;
  }
  if (row.secret === null)
    throw new KeySecretError(
      `the keys in ${pool.displayUrl} were made with MESHLENS_KEYS_SECRET; set it here too, to the same value as on the other replicas`,
    );
  if (!isSecretText(row.secret) || row.fingerprint !== fingerprintOf(Buffer.from(row.secret, 'hex')))
    throw new KeySecretError(
      `the key secret kept in ${pool.displayUrl} is damaged; without it no existing key can be checked`,
    );
  return Buffer.from(row.secret, 'hex');
}
