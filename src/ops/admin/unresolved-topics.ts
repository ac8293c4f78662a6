/**
 * The topic producers and consumers whose destination could not be resolved, as `admin status` lists
 * them: counted, the first ones with `file:line`, so an empty topic list is never mistaken for "no events".
 */
import type { SnapshotReader, UnresolvedTopic } from '../../index/reader.js';
import { displayPath } from '../shared/workspace-paths.js';
import { FIRST_UNRESOLVED } from './unresolved-calls.js';

export interface UnresolvedTopicSummary {
  readonly count: number;
  readonly topics: readonly {
    readonly at: string;
    readonly role: string;
    readonly topic: string;
    readonly broker: string | null;
    readonly via: string;
    readonly reason: string;
  }[];
}

export function unresolvedTopicSummary(snapshot: SnapshotReader): UnresolvedTopicSummary {
  const all: readonly UnresolvedTopic[] = snapshot.contractGraph().unresolvedTopics;
  return {
    count: all.length,
    topics: all.slice(0, FIRST_UNRESOLVED).map((t) => ({
      at: `${displayPath(snapshot.roots, t.root, t.file)}:${t.line}`,
      role: t.role,
      topic: t.topic,
      broker: t.broker ?? null,
      via: t.via,
      reason: t.reason,
    })),
  };
}

export function renderUnresolvedTopics(summary: UnresolvedTopicSummary): string[] {
  if (summary.count === 0) return [];
  const lines = [
    `**Unresolved topics:** ${summary.count} producer(s) or consumer(s) name a destination the index cannot resolve (kept, not dropped):`,
  ];
  for (const t of summary.topics)
    lines.push(`- \`${t.at}\` ${t.role} \`${t.topic}\` (${t.via}) — ${t.reason}`);
  if (summary.count > summary.topics.length)
    lines.push(`- … and ${summary.count - summary.topics.length} more`);
  return lines;
}
