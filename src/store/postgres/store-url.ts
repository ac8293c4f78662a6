/**
 * Where the team store lives: SQLite files under the cache and data folders (the default), or one PostgreSQL
 * database shared by every replica. Chosen by `--store`, else `MESHLENS_STORE`, else `[server] store`.
 */
export type StoreChoice =
  | { readonly kind: 'sqlite' }
  | {
      readonly kind: 'postgres';
      /** The URL as given: it may carry a password, so it is never printed (see `displayUrl`). */
      readonly url: string;
      /** The URL with any password replaced, for messages and `doctor`. */
      readonly displayUrl: string;
    };

export class StoreUrlError extends Error {
  override readonly name = 'StoreUrlError';
}

export const SQLITE_STORE: StoreChoice = { kind: 'sqlite' };

/** Parses a store value; `sqlite` (or nothing) is the default, anything else must be a PostgreSQL URL. */
export function parseStoreUrl(value: string | undefined): StoreChoice {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'sqlite') return SQLITE_STORE;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StoreUrlError(
      `the store "${redactPassword(text)}" is not a URL; give \`sqlite\` or a PostgreSQL URL such as postgres://user@host:5432/meshlens`,
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new StoreUrlError(
      `the store URL must start with postgres:// or postgresql:// (got ${url.protocol}//); give \`sqlite\` for the local store`,
    );
  }
  if (url.pathname.replace(/^\//, '') === '') {
    throw new StoreUrlError(
      `the store URL ${displayOf(url)} names no database; add one after the host, e.g. postgres://${url.host || 'localhost'}/meshlens`,
    );
  }
  return { kind: 'postgres', url: text, displayUrl: displayOf(url) };
}

/** The choice from a flag, the environment and the config, in that order of precedence. */
export function storeChoiceOf(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  configured: string | undefined,
): StoreChoice {
  return parseStoreUrl(flag ?? env['MESHLENS_STORE'] ?? configured);
}

function displayOf(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password !== '') copy.password = '***';
  return copy.href;
}

/** Masks `:password@` in something that did not even parse as a URL. */
function redactPassword(text: string): string {
  return text.replace(/(\/\/[^:/@]*):[^@/]*@/, '$1:***@');
}
