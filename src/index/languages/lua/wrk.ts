/**
 * wrk/wrk2 load scripts: each `wrk.format(method, path, headers, body)` is an HTTP request the load
 * generator sends. Its method and path are read through the script's assignments (`local path = url ..
 * "/hotels?inDate=" .. d`, the last one above the call): string literals joined with `..`, a value that
 * is not a literal becomes a `{name}` segment, the query string is dropped, and a leading
 * `http://host:port` is the request's base. The wrk library itself (which defines `wrk.format`) is no script.
 */
import { innermostSymbolAt, type FactBuilder } from '../shared/fact-builder.js';
import { evaluate, logicalLines, topLevelSplit, type Assignment } from './expressions.js';

const FORMAT_CALL = /\bwrk\.format\s*\(/g;
const ASSIGNMENT = /^\s*(?:local\s+)?([A-Za-z_]\w*)\s*=\s*(?!=)(.+)$/;
const BASE = /^(https?:\/\/[^/{}?#]+)(.*)$/i;
const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);

export function addWrkRequests(source: string, builder: FactBuilder): void {
  if (!source.includes('wrk.format') || /function\s+wrk\.format\b|wrk\.format\s*=\s*function/.test(source))
    return;
  const lines = logicalLines(source);
  const assignments: Assignment[] = [];
  for (const { text, line } of lines) {
    const assigned = ASSIGNMENT.exec(text);
    if (assigned?.[1] && assigned[2]) assignments.push({ name: assigned[1], expression: assigned[2], line });
    for (const call of text.matchAll(FORMAT_CALL)) {
      const args = topLevelSplit(argumentText(text, call.index + call[0].length), ',');
      const method = evaluate(args[0] ?? '', assignments, line);
      const url = evaluate(args[1] ?? '', assignments, line);
      if (url === undefined) continue;
      const verb = method?.toUpperCase() ?? 'GET';
      const base = BASE.exec(url.replace(/[?#].*$/, ''));
      const path = (base ? base[2] : url.replace(/[?#].*$/, '')) || '/';
      const known = path.startsWith('/');
      builder.addContract(
        {
          kind: 'http_call',
          method: METHODS.has(verb) ? verb : 'GET',
          path: known ? path : '/',
          ...(base?.[1] ? { base: base[1] } : {}),
          ...(known ? {} : { unresolved: (args[1] ?? '').trim().slice(0, 120) }),
          line,
          confidence: 'heuristic',
          via: 'wrk.format',
        },
        { owner: innermostSymbolAt(builder.symbols, line) },
      );
    }
  }
}

/** The text between a call's parentheses, given where the arguments start. */
function argumentText(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      if (depth === 0) return text.slice(start, i);
      depth--;
    }
  }
  return text.slice(start);
}
