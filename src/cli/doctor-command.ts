import { ConfigError, type LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { auditDbPath } from '../store/audit-log.js';
import {
  check,
  deadConfigChecks,
  duplicatedSubmoduleChecks,
  gitCheck,
  grammarCheck,
  inotifyCheck,
  rootChecks,
  type DoctorCheck,
} from './doctor-checks.js';
import { boundaryChecks } from './doctor-boundary.js';
import { visibilityChecks } from './doctor-visibility.js';
import { auditCheck, cacheCheck, indexCheck, orphanedCacheCheck } from './doctor-state.js';

export interface DoctorOptions {
  /** Loads the configuration; a ConfigError becomes the `config` check's error. */
  readonly load: () => LoadedConfig;
  readonly logger: Logger;
  readonly json: boolean;
  readonly fix: boolean;
  readonly write: (text: string) => void;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface DoctorSummary {
  readonly errors: number;
  readonly warnings: number;
  readonly fixed: number;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Every check, in the order printed. Checks that need the config are skipped when it cannot be loaded. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorCheck[]> {
  const env = options.env ?? process.env;
  let loaded: LoadedConfig | undefined;
  let configCheck: DoctorCheck;
  try {
    loaded = options.load();
    configCheck = check(
      'config',
      'ok',
      loaded.file ? `found ${loaded.file}` : `no meshlens.toml found; defaults apply to ${loaded.baseDir}`,
    );
  } catch (error) {
    const message =
      error instanceof ConfigError ? error.message : `cannot load the config: ${errorText(error)}`;
    configCheck = check('config', 'error', message);
  }
  if (!loaded) {
    return [
      configCheck,
      await grammarCheck(),
      gitCheck(),
      auditCheck(auditDbPath(env), options.fix),
      ...optional(inotifyCheck()),
    ];
  }
  // The cache is judged before the index run, which would otherwise open (and silently rebuild) a damaged one.
  const cache = cacheCheck(loaded, options.fix, env);
  const orphans = orphanedCacheCheck(loaded, options.fix, env);
  const index = await indexCheck(loaded, options.logger, cache.leaveAlone);
  return [
    configCheck,
    ...boundaryChecks(loaded),
    ...deadConfigChecks(loaded, index.snapshot, env),
    ...rootChecks(loaded),
    ...duplicatedSubmoduleChecks(loaded.roots),
    ...visibilityChecks(loaded),
    await grammarCheck(),
    gitCheck(),
    cache.check,
    orphans,
    index.check,
    auditCheck(auditDbPath(env), options.fix),
    ...optional(inotifyCheck()),
  ];
}

const optional = (value: DoctorCheck | undefined): DoctorCheck[] => (value ? [value] : []);

export function summarize(checks: readonly DoctorCheck[]): DoctorSummary {
  return {
    errors: checks.filter((c) => c.status === 'error').length,
    warnings: checks.filter((c) => c.status === 'warn').length,
    fixed: checks.filter((c) => c.fixed === true).length,
  };
}

/** One line per check; a multi-line message (a config error) is folded onto its line. */
export function renderDoctor(checks: readonly DoctorCheck[], summary: DoctorSummary): string {
  const lines = checks.map((c) => {
    const message = c.message.replace(/\s*\n\s*/g, ' ');
    return `[${c.status}] ${c.name}: ${message}${c.fixed === true ? ' (fixed)' : ''}`;
  });
  lines.push(`doctor: ${summary.errors} error(s), ${summary.warnings} warning(s)`);
  return lines.join('\n');
}

/** `meshlens doctor`: returns the exit status, 1 when an error remains. */
export async function doctorCommand(options: DoctorOptions): Promise<number> {
  const checks = await runDoctor(options);
  const summary = summarize(checks);
  options.write(options.json ? JSON.stringify({ checks, summary }, null, 2) : renderDoctor(checks, summary));
  return summary.errors > 0 ? 1 : 0;
}
