#!/usr/bin/env node
// Byte size of the default page of `meshlens code search` (MCP smart_search) for a fixed set of queries.
//
//   node scripts/accuracy/search-pages.mjs <checkout>... [--meshlens dist/meshlens.js]
//        [--queries Service,Request,Handler,Client,get] [--extra-roots pb] [--budget 8500] [--json OUT]
//
// Each checkout gets the config `meshlens init` proposes (in a hidden temp file inside the checkout, removed
// afterwards) and a temp cache, shared by its queries. The size measured is the UTF-8 byte length of the
// Markdown answer printed on stdout (what the MCP tool returns as text). Exit 1 when a page is over budget.
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDir, makeScratch, prepareConfig, runMeshlens } from './run-meshlens.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const checkouts = [];
let meshlens = path.resolve(HERE, '../../dist/meshlens.js');
let queries = ['Service', 'Request', 'Handler', 'Client', 'get'];
let extraRoots = [];
let budget = 8500; // 8.5 KB (the stricter reading; 8.5 KiB would be 8704)
let jsonOut;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const next = () => args[++i] ?? fail(`${a} needs a value`);
  if (a === '--meshlens') meshlens = path.resolve(next());
  else if (a === '--queries') queries = next().split(',');
  else if (a === '--extra-roots') extraRoots = next().split(',').filter(Boolean);
  else if (a === '--budget') budget = Number(next());
  else if (a === '--json') jsonOut = path.resolve(next());
  else if (a.startsWith('--')) fail(`unknown option ${a}`);
  else checkouts.push(path.resolve(a));
}
if (checkouts.length === 0)
  fail('usage: search-pages.mjs <checkout>... [--queries a,b] [--extra-roots pb] [--budget 8500]');

function fail(message) {
  process.stderr.write(`search-pages.mjs: ${message}\n`);
  process.exit(2);
}

const rows = [];
for (const checkout of checkouts) {
  if (!isDir(checkout)) fail(`checkout not found: ${checkout}`);
  const scratch = makeScratch('search');
  const config = prepareConfig({ meshlens, checkout, env: scratch.env, extraRoots });
  try {
    for (const query of queries) {
      const r = runMeshlens(
        meshlens,
        ['code', 'search', '--query', query, '--workspace', checkout, '--config', config.file],
        scratch.env,
      );
      const bytes = Buffer.byteLength(r.stdout, 'utf8');
      // The footer line says how many files were shown out of how many.
      const footer =
        r.stdout
          .trim()
          .split('\n')
          .filter((l) => /\b(of|more|offset|page|truncated)\b/i.test(l))
          .slice(-1)[0] ?? '';
      const entries = (r.stdout.match(/^#{2,3} /gm) ?? []).length;
      rows.push({
        checkout: path.basename(checkout),
        query,
        bytes,
        status: r.status,
        ms: r.ms,
        sections: entries,
        footer: footer.trim().slice(0, 160),
      });
      if (r.status !== 0)
        process.stderr.write(
          `search-pages.mjs: ${query} on ${checkout} exited ${r.status}: ${r.stderr.slice(0, 500)}\n`,
        );
    }
  } finally {
    config.cleanup();
    scratch.remove();
  }
}

const over = rows.filter((r) => r.bytes > budget);
const width = Math.max(...rows.map((r) => r.checkout.length), 8);
process.stdout.write(
  `${'checkout'.padEnd(width)}  ${'query'.padEnd(8)}  ${'bytes'.padStart(6)}  ${'ms'.padStart(6)}  footer\n`,
);
for (const r of rows) {
  process.stdout.write(
    `${r.checkout.padEnd(width)}  ${r.query.padEnd(8)}  ${String(r.bytes).padStart(6)}  ${String(r.ms).padStart(6)}  ${r.bytes > budget ? 'OVER BUDGET ' : ''}${r.footer}\n`,
  );
}
const heaviest = rows.reduce((a, b) => (b.bytes > a.bytes ? b : a), rows[0]);
process.stdout.write(
  `heaviest: ${heaviest.checkout} "${heaviest.query}" ${heaviest.bytes} B (budget ${budget} B); ${over.length} over budget\n`,
);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ budget, rows }, null, 2)}\n`);
process.exit(over.length > 0 ? 1 : 0);
