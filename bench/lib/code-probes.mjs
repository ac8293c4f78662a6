// Probes for the call-graph code modes, decided from the ground truth and the generated text: use sites of
// functions and methods declared once in the workspace (find_definition at the name's column, checked
// against the declaring file) and those declarations themselves (find_callers by `<path>:<name>`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRng } from './rng.mjs';

const CALLABLE = new Set(['function', 'method']);
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

/** Functions and methods whose name no other declaration of the workspace has. */
function uniqueCallables(truth) {
  const count = new Map();
  for (const [name] of truth.symbols) count.set(name, (count.get(name) ?? 0) + 1);
  const out = new Map();
  for (const [name, kind, fileIndex, line] of truth.symbols)
    if (CALLABLE.has(kind) && count.get(name) === 1)
      out.set(name, { name, file: truth.files[fileIndex].path, line });
  return out;
}

/**
 * Up to `count` use sites (a line other than the declaration naming a unique function or method), one per
 * name, from files visited in a seeded order, and `count` declarations to ask callers of.
 */
export function buildCodePlan(ws, truth, { count, seed }) {
  const rng = createRng(`code:${seed}`);
  const callables = uniqueCallables(truth);
  const uses = [];
  const used = new Set();
  for (const file of rng.shuffle(truth.files.map((f) => f.path).sort())) {
    if (uses.length >= count) break;
    const lines = readFileSync(path.join(ws, file), 'utf8').split('\n');
    lines.forEach((text, index) => {
      for (const match of text.matchAll(IDENTIFIER)) {
        const decl = callables.get(match[0]);
        if (!decl || used.has(decl.name) || uses.length >= count) continue;
        if (decl.file === file && decl.line === index + 1) continue;
        used.add(decl.name);
        uses.push({ path: file, line: index + 1, column: match.index + 1, expected: decl.file });
      }
    });
  }
  const declarations = rng
    .shuffle([...callables.values()].sort((a, b) => (a.name < b.name ? -1 : 1)))
    .slice(0, count)
    .map((d) => ({ symbol: `${d.file}:${d.name}` }));
  return { uses, declarations };
}

const locations = (text) => new Set([...text.matchAll(/`([^`\s]+):(\d+)`/g)].map((m) => m[1]));

/** Times every probe; `ok` counts definitions naming the declaring file and callers answers without error. */
export async function codeProbes(session, codePlan, call) {
  const definition = { ms: [], ok: 0, total: codePlan.uses.length, rows: 0 };
  for (const use of codePlan.uses) {
    const r = await call(session, 'find_definition', { path: use.path, line: use.line, column: use.column });
    definition.ms.push(r.ms);
    if (!r.isError && locations(r.text).has(use.expected)) definition.ok++;
  }
  const callers = { ms: [], ok: 0, total: codePlan.declarations.length, rows: 0 };
  for (const d of codePlan.declarations) {
    const r = await call(session, 'find_callers', { symbol: d.symbol, depth: 2 });
    callers.ms.push(r.ms);
    if (!r.isError) callers.ok++;
    callers.rows += (r.text.match(/^\| \d+ \| \d+ \|/gm) ?? []).length;
  }
  return { definition, callers };
}
