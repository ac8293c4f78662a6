import type { SharedIndexStatus } from '../../index/reader.js';

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

const SHARED_STATES: Record<SharedIndexStatus['state'], string> = {
  claiming: 'asking for the index job',
  waiting: 'waiting for another replica to build the index',
  building: 'building the index for every replica',
  following: 'indexing from the facts another replica just shared',
  built: 'built the shared index',
  followed: 'indexed from the shared facts',
  unshared: 'indexes on its own, without the shared index',
};

/** With a team store: who built the shared snapshot, and whether this replica parsed or pulled its facts. */
export function sharedSection(shared: SharedIndexStatus | undefined): string[] {
  if (!shared) return [];
  const lines = [`**Shared index:** this replica (${shared.replica}) ${SHARED_STATES[shared.state]}.`];
  const holder = shared.holder;
  if (shared.state === 'waiting' && holder) {
    const progress = holder.total > 0 ? `, ${holder.done} of ${holder.total} files` : '';
    lines.push(`Replica ${holder.replica} holds the index job since ${holder.since}${progress}.`);
  }
  const snapshot = shared.snapshot;
  if (snapshot) {
    lines.push(
      `Shared snapshot: run ${snapshot.run} by replica ${snapshot.replica}, finished ${snapshot.finishedAt}; ${count(snapshot.files, 'file')}, ${snapshot.parsed} parsed there.`,
    );
  }
  const mine = shared.thisRun;
  if (mine) {
    const match = snapshot
      ? mine.matchesSnapshot
        ? ' It read the same files as the shared snapshot.'
        : ' Its files differ from the shared snapshot (another checkout or settings).'
      : '';
    lines.push(
      `This replica parsed ${count(mine.parsed, 'file')}, pulled ${count(mine.pulled, 'fact')} from the store and shared ${mine.uploaded}.${match}`,
    );
  }
  if (shared.note) lines.push(`> ${shared.note}`);
  return lines;
}
