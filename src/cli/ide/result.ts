/**
 * What happened to one client config file:
 * - `created`, `updated`, `unchanged`: the meshlens entry is now as meshlens would write it;
 * - `kept`: the file has a meshlens entry meshlens does not recognise as its own (no `serve` argument), left as written;
 * - `invalid`: the file could not be read as the client's format, left untouched;
 * - `skipped`: the client's folder does not exist on this machine; nothing was written (the detail shows the entry).
 */
export type IdeConfigStatus = 'created' | 'updated' | 'unchanged' | 'kept' | 'invalid' | 'skipped';

export interface IdeConfigResult {
  /** Absolute path of the file. */
  readonly file: string;
  readonly status: IdeConfigStatus;
  readonly detail?: string;
}

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const KEPT_DETAIL =
  'its meshlens entry has no `serve` argument, so it is not one meshlens wrote; left as written';
