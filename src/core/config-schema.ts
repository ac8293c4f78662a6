import { z } from 'zod';
import { isRateSpecText, RATE_SPEC_HELP } from './rate-spec.js';
import { NAME_HELP, NAME_PATTERN } from './tenant-name.js';

/**
 * `meshlens.toml`, the one source of truth for configuration: the loader validates against it (refusing
 * unknown keys), the JSON Schema for editors is generated from it, and defaults live here only.
 */

const pathList = z.array(z.string().min(1));

export const patternKinds = ['topic_producer', 'topic_consumer', 'rpc', 'saga'] as const;

export const contractPatternSchema = z.strictObject({
  name: z.string().min(1).describe('Label shown as the evidence of what the pattern found.'),
  kind: z.enum(patternKinds).describe('What a match declares.'),
  regex: z.string().min(1).describe('JavaScript regular expression applied to each line of matching files.'),
  file_pattern: z
    .string()
    .optional()
    .describe('Only files whose path ends with (or, with a leading `*`, contains) this, e.g. "*.ts".'),
  target_group: z.number().int().min(0).default(1).describe('Capture group holding the topic or RPC name.'),
  consumer_group: z.number().int().min(0).optional().describe('Capture group naming the consumer class.'),
});

export const callLimitsSchema = z.strictObject({
  rate: z
    .string()
    .refine(isRateSpecText, RATE_SPEC_HELP)
    .optional()
    .describe('A token bucket: "10/s" admits 10 calls at once and 10 more each second (also N/m, N/h).'),
  daily: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Calls admitted per UTC day, counted in the key store across processes and restarts.'),
});

/** What one role may see: `*`, a domain (`code` or `code.*`) or one mode (`code.search`). */
const visibilityRules = z
  .array(z.string().min(1))
  .describe('Rules: `*` (everything), a domain (`code` or `code.*`), or one mode (`code.search`).');

export const configSchema = z.strictObject({
  workspace: z
    .strictObject({
      name: z.string().min(1).optional().describe('Label for the workspace; defaults to the folder name.'),
      roots: pathList
        .default(['.'])
        .describe('Folders to index, relative to this file; a glob expands to one root per matching folder.'),
      exclude: pathList.default([]).describe('Extra gitignore-style patterns to leave out of the index.'),
      include_secret_files: z
        .boolean()
        .default(false)
        .describe('Index `.env*`, `*.pem`, `*.key` files (excluded by default).'),
      mount_aliases: z
        .record(z.string(), z.string())
        .default({})
        .describe('Path prefixes a client may use (e.g. a container path) mapped to host paths.'),
    })
    .prefault({}),
  docs: z
    .strictObject({
      enabled: z.boolean().default(true),
      paths: pathList
        .default([])
        .describe('Folders or files holding Markdown docs; empty means every *.md in the roots.'),
      workspace_docs: z
        .boolean()
        .default(true)
        .describe(
          'Also index and search the Markdown at the top of the workspace folder (README.md) and in its docs/ folder when no root covers them.',
        ),
      aliases: z
        .record(z.string(), z.string())
        .default({})
        .describe('Query word → indexed word, e.g. dlq → dead-letter-queue.'),
      stop_words: z.array(z.string()).default([]),
      exact_phrase_boost: z.number().int().min(0).default(60),
      sanitize_prompt_injections: z.boolean().default(true),
    })
    .prefault({}),
  code: z
    .strictObject({
      call_graph: z
        .boolean()
        .default(true)
        .describe(
          'Keep call sites in the index, for callers, callees, definitions, references and the impact of a function (false: a smaller index and cache; those modes then find no calls).',
        ),
    })
    .prefault({}),
  contracts: z
    .strictObject({
      enabled: z.boolean().default(true),
      proto_dirs: pathList
        .default([])
        .describe('Only `.proto` files under these folders define contracts; empty means all.'),
      patterns: z.array(contractPatternSchema).default([]),
    })
    .prefault({}),
  policy: z
    .strictObject({
      audit: z.boolean().default(true).describe('Write one hash-chained audit record per call.'),
      read_governance: z
        .enum(['allow', 'warn', 'enforce'])
        .default('allow')
        .describe('Whether stop rules also refuse (enforce) or only record (warn) read-only calls.'),
      stop_rules: z
        .record(z.string(), z.string())
        .default({})
        .describe('Path segment → message for the user.'),
      skills: z
        .record(z.string(), z.string())
        .default({})
        .describe('Operation name or path fragment → Markdown skill file.'),
    })
    .prefault({}),
  cache: z
    .strictObject({
      enabled: z.boolean().default(true),
      max_size_mb: z.number().int().min(1).default(2048),
    })
    .prefault({}),
  tools: z
    .strictObject({
      disabled_domains: z
        .array(z.string())
        .default([])
        .describe('Domains (code, contracts, docs, graph, git, admin, memory) neither listed nor callable.'),
      first_call_wait_seconds: z
        .number()
        .min(0)
        .max(600)
        .default(30)
        .describe(
          'How long a call that reads the index waits for the first index when it arrives before it is ready (0: answer "still indexing" at once).',
        ),
    })
    .prefault({}),
  server: z
    .strictObject({
      store: z
        .string()
        .optional()
        .describe(
          'Where `serve --http` keeps keys, usage, audit, notes and facts: `sqlite` (the default, files under the cache and data folders) or a postgres:// URL that several replicas share. `--store` and MESHLENS_STORE win over this.',
        ),
      daemon_idle_minutes: z
        .number()
        .positive()
        .max(1440)
        .default(10)
        .describe(
          'How long the workspace daemon that `serve` attaches to stays up with no client attached (read when it starts; fractions allowed).',
        ),
      limits: z
        .strictObject({
          local: callLimitsSchema
            .optional()
            .describe('Limits for calls without a key (stdio); none by default.'),
          roles: z
            .record(z.string(), callLimitsSchema)
            .default({})
            .describe(
              "Role → limits for the API keys of that role; a key's own `keys create --rate/--daily` win.",
            ),
        })
        .prefault({}),
      visibility: z
        .strictObject({
          roles: z
            .record(z.string(), visibilityRules)
            .default({})
            .describe(
              'Role → what the API keys of that role may see and call. A key whose role is listed nowhere sees nothing; calls without a key (stdio) see everything.',
            ),
          tenants: z
            .record(z.string(), z.record(z.string(), visibilityRules))
            .default({})
            .describe(
              "Tenant → role → rules, for one tenant's keys: an entry here replaces the role's entry in `roles` for that tenant.",
            ),
        })
        .prefault({}),
      tenants: z
        .record(
          z.string().regex(NAME_PATTERN, `a tenant name must ${NAME_HELP}`),
          z.strictObject({
            workspace: z
              .string()
              .min(1)
              .describe(
                "The tenant's workspace folder, relative to this file; its own meshlens.toml, if it has one, is loaded for it.",
              ),
          }),
        )
        .default({})
        .describe(
          "Tenant → its workspace, for `serve --http` with API keys: each key is served its tenant's workspace only, with its own index, cache, notes and audit log, and a key whose tenant is not listed is refused. Without this table every key is served this file's workspace.",
        ),
    })
    .prefault({}),
});

export type MeshConfig = z.output<typeof configSchema>;
export type ContractPattern = z.output<typeof contractPatternSchema>;
