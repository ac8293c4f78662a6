/**
 * Piscina worker entry (bundled to `dist/parse-worker.js`). Piscina calls the named export `parseBatch`
 * (see its `name` option), so this file needs no default export. A task is a batch of files: one message
 * per file would cost more than parsing a small file.
 */
import type { LanguageId } from '../facts.js';
import type { ExtractOptions } from '../languages/extractor.js';
import { loadLanguage, parseFile, type ParseJob, type ParseOutcome } from './parser.js';

export interface ParseBatchTask {
  readonly jobs: readonly ParseJob[];
  /** Resolved by the pool so that workers and the in-process retry load the very same grammars. */
  readonly grammarsDir: string;
  readonly timeoutMs: number;
  /** The same settings the in-process path passes, so both modes extract the same facts. */
  readonly extractOptions?: ExtractOptions;
  /** Load these grammars before the jobs (a warm-up task has no jobs). */
  readonly warmLanguages?: readonly LanguageId[];
}

/** Outcomes in job order. Workers always use the built-in extractor list: functions cannot cross threads. */
export async function parseBatch(task: ParseBatchTask): Promise<ParseOutcome[]> {
  // A grammar that fails to load fails here quietly; parsing a file of it reports the failure.
  for (const language of task.warmLanguages ?? [])
    await loadLanguage(language, task.grammarsDir).catch(() => undefined);
  const outcomes: ParseOutcome[] = [];
  for (const job of task.jobs) {
    outcomes.push(
      await parseFile(job, {
        grammarsDir: task.grammarsDir,
        timeoutMs: task.timeoutMs,
        ...(task.extractOptions !== undefined ? { options: task.extractOptions } : {}),
      }),
    );
  }
  return outcomes;
}
