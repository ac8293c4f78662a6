/**
 * Walks one declaration back through the versions of its file: the commits that changed the file (followed
 * through renames), each version's blob read in batches through one process and parsed with the indexing
 * extractor, and a row wherever the declaration's normalised body hash differs from the version before.
 */
import type { LanguageId } from '../../index/reader.js';
import type { DeclarationParser } from '../services.js';
import { readBlobs } from '../shared/git/cat-file.js';
import {
  findDeclaration,
  MAX_VERSION_BYTES,
  parseVersion,
  type VersionedDeclaration,
} from './declaration-versions.js';
import { readLog, type CommitRecord } from './log-records.js';
import type { WorkspaceRepository } from './repository.js';

/** Versions of a file examined at most per answer: each is a parse. */
export const MAX_VERSIONS = 400;
/** Blobs asked for per `cat-file` process. */
const BATCH = 40;

export type ChangeKind = 'introduced' | 'changed' | 'removed' | 'oldest_version';

export interface SymbolChange {
  readonly commit: CommitRecord;
  /** Repository-relative path of the file at this commit. */
  readonly path: string;
  readonly change: ChangeKind;
  /** The declaration in this version; undefined when it was removed here. */
  readonly declaration: VersionedDeclaration | undefined;
}

export interface SymbolWalk {
  readonly changes: SymbolChange[];
  /** The declaration as of HEAD's version of the file (undefined when absent there). */
  readonly atHead: VersionedDeclaration | undefined;
  /** The walk stopped at MAX_VERSIONS or at a shallow clone's boundary before the declaration began. */
  readonly truncated: 'walk' | 'shallow' | undefined;
}

export interface SymbolTarget {
  readonly parser: DeclarationParser;
  readonly relative: string;
  /** Root-relative path, for the extractor's conventions. */
  readonly extractorPath: string;
  readonly language: LanguageId;
  readonly key: string;
  readonly occurrence: number;
}

/** The path a commit left the file at: the rename's new name, else the path listed. */
const pathAt = (commit: CommitRecord, fallback: string): string => commit.files[0]?.path ?? fallback;

async function versionsOf(
  repo: WorkspaceRepository,
  target: SymbolTarget,
  commits: readonly CommitRecord[],
  signal: AbortSignal,
): Promise<(VersionedDeclaration | undefined)[]> {
  const specs = commits.map((c) => `${c.sha}:${pathAt(c, target.relative)}`);
  const blobs = await readBlobs(specs, { cwd: repo.top, signal, maxBlobBytes: MAX_VERSION_BYTES });
  const found: (VersionedDeclaration | undefined)[] = [];
  for (const blob of blobs) {
    if (blob.kind !== 'content') {
      found.push(undefined);
      continue;
    }
    const parsed = await parseVersion(target.parser, target.extractorPath, target.language, blob.text);
    found.push(
      parsed.kind === 'parsed'
        ? findDeclaration(parsed.declarations, target.key, target.occurrence)
        : undefined,
    );
  }
  return found;
}

/** Changes newest first, until `wanted` of them are known, the declaration's start, or the bound. */
export async function walkSymbol(
  repo: WorkspaceRepository,
  target: SymbolTarget,
  wanted: number,
  signal: AbortSignal,
): Promise<SymbolWalk> {
  const commits = await readLog(
    repo,
    { files: true, max: MAX_VERSIONS + 1, options: ['--follow'], paths: [target.relative] },
    signal,
  );
  const walked = commits.slice(0, MAX_VERSIONS);
  const versions: (VersionedDeclaration | undefined)[] = [];
  const ensure = async (index: number) => {
    while (versions.length <= index && versions.length < walked.length) {
      const from = versions.length;
      versions.push(...(await versionsOf(repo, target, walked.slice(from, from + BATCH), signal)));
    }
  };
  await ensure(0);
  const changes: SymbolChange[] = [];
  for (let i = 0; i < walked.length && changes.length < wanted; i++) {
    await ensure(i + 1);
    const now = versions[i];
    const isLast = i === walked.length - 1;
    const before = isLast ? undefined : versions[i + 1];
    const commit = walked[i] as CommitRecord;
    const path = pathAt(commit, target.relative);
    if (now !== undefined && before === undefined) {
      // Absent in the version before: the declaration began here, unless history was cut off here.
      const cut = isLast && (commits.length > MAX_VERSIONS || repo.shallow);
      changes.push({ commit, path, change: cut ? 'oldest_version' : 'introduced', declaration: now });
      return {
        changes,
        atHead: versions[0],
        truncated: cut ? (repo.shallow ? 'shallow' : 'walk') : undefined,
      };
    }
    if (now === undefined && before !== undefined)
      changes.push({ commit, path, change: 'removed', declaration: undefined });
    else if (now !== undefined && before !== undefined && now.bodyHash !== before.bodyHash)
      changes.push({ commit, path, change: 'changed', declaration: now });
  }
  return { changes, atHead: versions[0], truncated: undefined };
}
