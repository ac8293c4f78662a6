import { createHash } from 'node:crypto';
import type { Snapshot } from './snapshot.js';

/**
 * Canonical lines of a snapshot: every fact, with paths written `<root name>:<relative path>` and no
 * internal ids, so that the same content gives the same lines whatever the machine, checkout folder,
 * worker count or file order. `derivedLines` are the canonical lines of structures derived from the facts
 * (the contract graph), which the caller builds.
 */
export function canonicalLines(snapshot: Snapshot, derivedLines: readonly string[] = []): string[] {
  const lines: string[] = [];
  const clean = (value: string | undefined) => (value ?? '').replace(/\s+/g, ' ');
  for (const file of snapshot.files) {
    const where = `${file.root}:${file.path}`;
    const facts = file.facts;
    lines.push(`file ${where} ${file.language ?? '-'} ${file.hash} ${clean(facts.package)}`);
    for (const s of facts.symbols) {
      const parent = s.parent !== undefined ? clean(facts.symbols[s.parent]?.qualifiedName) : '';
      lines.push(
        `symbol ${where} ${s.kind} ${clean(s.qualifiedName)} ${s.startLine}-${s.endLine} ${s.bodyStartLine ?? ''}-${s.bodyEndLine ?? ''} ${parent} ${clean(s.signature)} ${(s.decorators ?? []).map(clean).join('|')} ${clean(s.docstring)}`,
      );
    }
    for (const i of facts.imports) {
      lines.push(
        `import ${where} ${i.line} ${clean(i.source)} ${(i.names ?? []).join(',')} ${i.reexport ? 're' : ''} ${clean(i.resolved)}`,
      );
    }
    for (const c of facts.contracts) {
      const symbol =
        'symbol' in c && c.symbol !== undefined ? clean(facts.symbols[c.symbol]?.qualifiedName) : '';
      lines.push(`contract ${where} ${JSON.stringify({ ...c, symbol })}`);
    }
    for (const p of facts.protoServices ?? []) lines.push(`proto ${where} ${JSON.stringify(p)}`);
    for (const d of facts.sections ?? []) {
      const digest = createHash('sha256').update(d.text).digest('hex').slice(0, 16);
      lines.push(`section ${where} ${d.level} ${d.startLine}-${d.endLine} ${clean(d.title)} ${digest}`);
    }
    for (const p of facts.properties ?? [])
      lines.push(`property ${where} ${p.line} ${clean(p.key)}=${clean(p.value)}`);
  }
  for (const r of snapshot.rejected) lines.push(`rejected ${r.root}:${r.path} ${r.reason} ${r.size}`);
  for (const line of derivedLines) lines.push(line);
  return lines.sort();
}

export function fingerprintOf(snapshot: Snapshot, derivedLines: readonly string[] = []): string {
  const hash = createHash('sha256');
  for (const line of canonicalLines(snapshot, derivedLines)) hash.update(`${line}\n`);
  return hash.digest('hex');
}
