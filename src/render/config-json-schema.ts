import { z } from 'zod';
import { configSchema } from '../core/config-schema.js';

/** Where the generated schema is committed, relative to the package root. */
export const CONFIG_SCHEMA_DOC = 'docs/meshlens.schema.json';

/**
 * The JSON Schema of `meshlens.toml` for editors (Taplo / Even Better TOML, IntelliJ), generated from the
 * zod schema the loader validates with, so completion and validation cannot drift from what is accepted.
 * Input side: keys with defaults are optional. Draft-07, the newest draft every TOML editor plugin reads.
 */
export function renderConfigJsonSchema(): string {
  const generated = z.toJSONSchema(configSchema, { io: 'input', target: 'draft-7' }) as Record<
    string,
    unknown
  >;
  const { $schema, ...rest } = generated;
  const schema = {
    $schema,
    title: 'meshlens.toml',
    description:
      'Configuration of meshlens: roots to index, docs, contract conventions, policy, cache, tools.',
    ...rest,
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}
