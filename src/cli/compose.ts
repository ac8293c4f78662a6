import path from 'node:path';
import type { LoadedConfig, ResolvedRoot } from '../core/config.js';
import { createPolicyGovernance } from '../trust/policy-governance.js';
import type { Logger } from '../core/logger.js';
import type { UsageCounter } from '../core/admission.js';
import { createPathJail, type PathJail } from '../trust/path-jail.js';
import { Registry } from '../core/registry.js';
import { visibilityTableOf } from '../core/visibility.js';
import { languageSpec } from '../index/languages/registry.js';
import { parseDeclarations } from '../index/parse/declarations.js';
import { workspaceDocLocations } from '../index/workspace-docs.js';
import { OPERATIONS } from '../ops/catalog.js';
import type { DocsSettings, MeshServices } from '../ops/services.js';
import { auditDbPath } from '../store/cache-paths.js';
import { LazyAuditLog, type AuditTrail } from './lazy-audit.js';
import { localAdmission } from './local-admission.js';
import { LazyNotes } from './lazy-notes.js';
import type { LazyIndex } from './lazy-index.js';

/** `[docs]` as the docs search needs it, with paths made absolute against the config folder. */
export function docsSettingsOf(loaded: LoadedConfig): DocsSettings {
  const docs = loaded.config.docs;
  return {
    paths: docs.paths.map((p) => path.resolve(loaded.baseDir, p)),
    aliases: docs.aliases,
    stopWords: docs.stop_words,
    exactPhraseBoost: docs.exact_phrase_boost,
  };
}

export interface ComposeOptions {
  readonly loaded: LoadedConfig;
  readonly index: LazyIndex;
  /** The workspace's notes, when the caller shares them (completions); else opened here. */
  readonly notes?: LazyNotes;
  readonly logger: Logger;
  readonly session?: string;
  /** The audit log's file: the installation's (`$MESHLENS_AUDIT_DB`, else the cache folder) by default. */
  readonly auditPath?: string;
  /** Where `${WORKSPACE_ROOT}` in skill paths is read from: the process's environment by default. */
  readonly pathEnv?: Readonly<Record<string, string | undefined>>;
  /**
   * The audit trail to write to instead of the SQLite log (a team store's chain), when `[policy] audit` is on;
   * made only then.
   */
  readonly audit?: () => AuditTrail;
  /** Where `[server.limits.local]` calls are counted instead of the SQLite key file (a team store's counter). */
  readonly usage?: UsageCounter;
}

export interface ComposedRegistry {
  readonly registry: Registry<MeshServices>;
  /** The audit trail, if on; `load()` it once start-up is over. */
  readonly audit: AuditTrail | undefined;
  /** Closes what the registry holds open (the audit log, the notes); call once, on shutdown. */
  readonly close: () => Promise<void>;
}

/**
 * The path jail over the roots as they are now: a folder matching a root pattern that appeared after
 * start-up is a root for path arguments too. The workspace documents no root covers (README.md, docs/)
 * are indexed too, so they may be named as well. Rebuilt only when the roots change.
 */
function jailOverLiveRoots(index: LazyIndex, loaded: LoadedConfig): PathJail {
  let jailedRoots: readonly ResolvedRoot[] | undefined;
  let jail: PathJail | undefined;
  return (argument, value, check) => {
    const roots = index.roots();
    if (!jail || roots !== jailedRoots) {
      const docs = loaded.config.docs.workspace_docs ? workspaceDocLocations(loaded.baseDir, roots) : [];
      jail = createPathJail({
        roots: [
          ...roots,
          ...docs.map((location) => ({ name: path.relative(loaded.baseDir, location), path: location })),
        ],
        workspaceDir: loaded.baseDir,
        mountAliases: loaded.config.workspace.mount_aliases,
      });
      jailedRoots = roots;
    }
    return jail(argument, value, check);
  };
}

/** Wires the registry for one workspace: the operations, the index, and the policies from the config. */
export function composeRegistry(options: ComposeOptions): ComposedRegistry {
  const { loaded, index } = options;
  // `[policy] audit = false` means no records at all: not even an empty file is created.
  const audit = loaded.config.policy.audit
    ? (options.audit?.() ?? new LazyAuditLog(options.auditPath ?? auditDbPath(process.env), options.logger))
    : undefined;
  const notes = options.notes ?? new LazyNotes(loaded.baseDir);
  // Checked here first to name the file in the error; the registry checks the table again, unnamed.
  visibilityTableOf(loaded.config.server.visibility, OPERATIONS, loaded.file);
  const limits = localAdmission(loaded.config, process.env, options.usage);
  const registry = new Registry<MeshServices>({
    operations: OPERATIONS,
    services: {
      index,
      languages: languageSpec,
      docs: docsSettingsOf(loaded),
      notes: notes.open,
      parseDeclarations,
    },
    disabledDomains: loaded.config.tools.disabled_domains,
    visibility: loaded.config.server.visibility,
    logger: options.logger,
    governance: createPolicyGovernance(loaded, options.pathEnv ?? process.env),
    ...(audit ? { audit } : {}),
    ...(options.session ? { session: options.session } : {}),
    resolvePath: jailOverLiveRoots(index, loaded),
    readiness: () => index.readiness(),
    indexProgress: () => index.indexProgress(),
    firstCallWaitMs: loaded.config.tools.first_call_wait_seconds * 1000,
    stateNotes: () => index.stateNotes(),
    ...(limits ? { admission: limits.admission } : {}),
  });
  const close = async () => {
    await audit?.close();
    await notes.close();
    limits?.close();
  };
  return { registry, audit, close };
}
