/**
 * Custom conventions (`[[contracts.patterns]]`): a team's own producer/consumer/RPC/saga idioms that no
 * extractor knows, declared as a regex run over each line of the files it applies to. They run after the
 * language extractor, for every language, and only add contract facts (confidence `heuristic`, via
 * `pattern:<name>`), each attributed to the innermost symbol whose lines contain the match.
 *
 * Which files: `filePattern` with its leading `*` and `/` characters removed (`*.ts` → `.ts`) is matched as
 * a substring of the root-relative path when something was removed, as a suffix otherwise
 * (`order.service.ts`, `.go`). Without a `filePattern` a pattern applies to every file except Markdown docs, whose code samples
 * are not code.
 *
 * RPC captures: `Service.Method` or `Service/Method` give both names; a bare method name gives a client fact
 * whose service is `*` (unknown: the reconciler matches the method name against every service).
 */
import type { ContractFact, FileFacts } from '../../facts.js';
import type { ExtractInput, ExtractPattern } from '../extractor.js';
import { innermostSymbolAt } from './fact-builder.js';

/** Compiled regexes by source; null for a source that does not compile (reported at config load). */
const compiled = new Map<string, RegExp | null>();
const MAX_CACHED = 256;

function compile(source: string): RegExp | null {
  let regex = compiled.get(source);
  if (regex === undefined) {
    try {
      regex = new RegExp(source, 'g');
    } catch {
      regex = null;
    }
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(source, regex);
  }
  return regex;
}

/** Whether a pattern applies to `path` (see the module comment). */
export function patternAppliesTo(
  pattern: ExtractPattern,
  path: string,
  language: ExtractInput['language'],
): boolean {
  const raw = pattern.filePattern?.trim() ?? '';
  if (raw === '') return language !== 'markdown';
  const stripped = raw.replace(/^[*/]+/, '');
  if (stripped === '') return true;
  return stripped.length < raw.length ? path.includes(stripped) : path.endsWith(stripped);
}

function factOf(
  pattern: ExtractPattern,
  target: string,
  line: number,
  symbol: number | undefined,
): ContractFact {
  const via = `pattern:${pattern.name}`;
  const at = { line, ...(symbol !== undefined ? { symbol } : {}) };
  switch (pattern.kind) {
    case 'topic_producer':
    case 'topic_consumer':
      return { kind: pattern.kind, topic: target, ...at, confidence: 'heuristic', via };
    case 'saga':
      return { kind: 'saga', name: target, ...at, via };
    case 'rpc': {
      const split = Math.max(target.lastIndexOf('/'), target.lastIndexOf('.'));
      const service = split > 0 ? target.slice(0, split) : '*';
      const method = split > 0 ? target.slice(split + 1) : target;
      return { kind: 'grpc_client', service, method, ...at, confidence: 'heuristic', via };
    }
  }
}

/** `facts` plus what the workspace's custom patterns find in `input`; never throws. */
export function applyPatterns(input: ExtractInput, facts: FileFacts): FileFacts {
  const patterns = (input.options?.patterns ?? []).filter((p) =>
    patternAppliesTo(p, input.path, input.language),
  );
  if (patterns.length === 0) return facts;
  const runnable = patterns.flatMap((pattern) => {
    const regex = compile(pattern.regex);
    return regex === null ? [] : [{ pattern, regex }];
  });
  if (runnable.length === 0) return facts;

  const added: ContractFact[] = [];
  const lines = input.source.split(/\r\n|\r|\n/);
  lines.forEach((text, index) => {
    for (const { pattern, regex } of runnable) {
      // The cached regex is shared, but this loop is synchronous: resetting lastIndex is enough.
      regex.lastIndex = 0;
      for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
        if (match[0] === '') regex.lastIndex += 1;
        const target = match[pattern.targetGroup]?.trim();
        if (target === undefined || target === '') continue;
        added.push(factOf(pattern, target, index + 1, innermostSymbolAt(facts.symbols, index + 1)));
      }
    }
  });
  return added.length === 0 ? facts : { ...facts, contracts: [...facts.contracts, ...added] };
}
