// Probes for the call-graph code modes, decided from the ground truth and the generated text: calls of a
// function or method declared in the same file (find_definition at the name's column, checked against the
// file: the generated code calls its own methods), and those declarations (find_callers by `<path>:<line>`,
// which names one declaration even where a name repeats).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRng } from './rng.mjs';

const CALLABLE = new Set(['function', 'method']);
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
/** A line that is a comment (or the middle of a block comment) in the generated languages. */
const COMMENT = /^\s*(\/\/|#|\*|\/\*|--)/;
/** Calls probed in one file at most, so that the probes spread over the workspace. */
const PER_FILE = 2;

/** Per file: its functions and methods by name, with their declaration lines. */
function callablesByFile(truth) {
  const out = new Map();
  for (const [name, kind, fileIndex, line] of truth.symbols) {
    if (!CALLABLE.has(kind)) continue;
    const byName = out.get(fileIndex) ?? out.set(fileIndex, new Map()).get(fileIndex);
    (byName.get(name) ?? byName.set(name, []).get(name)).push(line);
  }
  return out;
}

/** The calls (`name(`) of the file's own functions and methods, outside comments and their declarations. */
function callsInFile(text, own) {
  const found = [];
  text.split('\n').forEach((line, index) => {
    if (COMMENT.test(line)) return;
    for (const match of line.matchAll(IDENTIFIER)) {
      const lines = own.get(match[0]);
      if (!lines || lines.includes(index + 1) || line[match.index + match[0].length] !== '(') continue;
      found.push({ line: index + 1, column: match.index + 1, declaration: lines[0] });
    }
  });
  return found;
}

/** Up to `count` calls of a file's own functions and methods, from files visited in a seeded order. */
export function buildCodePlan(ws, truth, { count, seed }) {
  const rng = createRng(`code:${seed}`);
  const callables = callablesByFile(truth);
  const uses = [];
  for (const fileIndex of rng.shuffle([...callables.keys()].sort((a, b) => a - b))) {
    if (uses.length >= count) break;
    const file = truth.files[fileIndex].path;
    const calls = callsInFile(readFileSync(path.join(ws, file), 'utf8'), callables.get(fileIndex));
    for (const call of rng.shuffle(calls).slice(0, Math.min(PER_FILE, count - uses.length)))
      uses.push({
        path: file,
        line: call.line,
        column: call.column,
        expected: file,
        symbol: `${file}:${call.declaration}`,
      });
  }
  return { uses, declarations: uses.map((use) => ({ symbol: use.symbol })) };
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
