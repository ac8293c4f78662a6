// What the harness asks, decided from the ground truth alone: search queries (names declared in exactly one
// file, rotating over roots and scopes), impact and dependents targets (topics, gRPC methods, HTTP routes)
// with the files each answer must list, and the files the reload probe appends to.
import { createRng } from './rng.mjs';

/** Declaration kinds a search is expected to find (not variables, constructors or proto RPC lines). */
const SEARCHABLE = new Set([
  'class',
  'struct',
  'interface',
  'trait',
  'enum',
  'record',
  'object',
  'function',
  'method',
  'grpc_service',
  'message',
]);

export function buildPlan(truth, { searches, impacts, reloads, seed }) {
  const rng = createRng(`plan:${seed}`);
  const files = truth.files;

  // Names declared once in the whole workspace (case-insensitive: search is case-insensitive).
  const count = new Map();
  for (const [name, kind] of truth.symbols) {
    // A constructor repeats its class's name in the same file; it does not make the name ambiguous.
    if (kind !== 'constructor') count.set(name.toLowerCase(), (count.get(name.toLowerCase()) ?? 0) + 1);
  }
  const byRoot = new Map();
  for (const [name, kind, fileIndex, line] of truth.symbols) {
    if (!SEARCHABLE.has(kind) || count.get(name.toLowerCase()) !== 1) continue;
    const file = files[fileIndex];
    const list = byRoot.get(file.root) ?? byRoot.set(file.root, []).get(file.root);
    list.push({ query: name, kind, file: file.path, root: file.root, line });
  }
  const roots = [...byRoot.keys()].sort();
  const shuffled = new Map(roots.map((r) => [r, rng.shuffle(byRoot.get(r))]));
  const queries = [];
  for (let k = 0; queries.length < searches && roots.length > 0; k++) {
    const root = roots[k % roots.length];
    const list = shuffled.get(root);
    const item = list[Math.floor(k / roots.length) % list.length];
    // Three calls in four are scoped to the file's root; the fourth searches every root.
    queries.push({ ...item, scope: k % 4 === 3 ? undefined : root });
  }

  // Contract targets, each with the files an answer must list.
  const targets = [];
  const add = (label, kind, expected) =>
    targets.push({ target: label, kind, expected: [...new Set(expected)].sort() });
  const topics = new Map();
  for (const t of truth.topics) (topics.get(t.topic) ?? topics.set(t.topic, []).get(t.topic)).push(t.file);
  const topicList = rng.shuffle([...topics.keys()].sort());
  const methods = new Map();
  for (const g of truth.grpc) {
    const key = `${g.service}.${g.method}`;
    (methods.get(key) ?? methods.set(key, []).get(key)).push(g.file);
  }
  // Prefer methods with callers: their answers cross roots.
  const called = new Set(truth.grpc.filter((g) => g.kind === 'calls').map((g) => `${g.service}.${g.method}`));
  const methodList = [
    ...rng.shuffle([...called].sort()),
    ...rng.shuffle([...methods.keys()].filter((m) => !called.has(m)).sort()),
  ];
  const routes = new Map();
  for (const h of truth.http) {
    const key = `${h.method} ${h.path}`;
    (routes.get(key) ?? routes.set(key, []).get(key)).push(h.file);
  }
  const calledRoutes = new Set(
    truth.http.filter((h) => h.kind === 'call').map((h) => `${h.method} ${h.path}`),
  );
  const routeList = rng.shuffle([...calledRoutes].sort());
  const pools = [
    topicList.map((t) => () => add(t, 'topic', topics.get(t))),
    methodList.map((m) => () => add(m, 'grpc', methods.get(m))),
    routeList.map((r) => () => add(r, 'http', routes.get(r))),
  ].filter((p) => p.length > 0);
  for (let k = 0; targets.length < impacts && pools.length > 0; k++) {
    const pool = pools[k % pools.length];
    pool[Math.floor(k / pools.length) % pool.length]();
  }

  // Reload probes alternate a TypeScript file and a Go file (other languages if those are missing).
  const probeLangs = ['typescript', 'go', 'python', 'java'];
  const candidates = probeLangs
    .map((lang) =>
      rng.shuffle(
        files
          .filter((f) => f.language === lang)
          .map((f) => f.path)
          .sort(),
      ),
    )
    .filter((l) => l.length);
  const probes = [];
  for (let k = 0; k < reloads && candidates.length; k++) {
    const list = candidates[k % Math.min(2, candidates.length)];
    const file = list[Math.floor(k / 2) % list.length];
    probes.push({ file, language: files.find((f) => f.path === file).language });
  }
  const languages = [...new Set(files.map((f) => f.language))].sort();
  return { queries, targets, probes, languages };
}

/** A unique declaration to append to a file, in that file's language, and the name to search for. */
export function probeDeclaration(language, suffix) {
  switch (language) {
    case 'go':
      return {
        name: `ProbeZ9k${suffix}`,
        text: `\n// ProbeZ9k${suffix} is a reload probe.\nfunc ProbeZ9k${suffix}() {}\n`,
      };
    case 'python':
      return { name: `probe_z9k_${suffix}`, text: `\n\ndef probe_z9k_${suffix}():\n    return None\n` };
    case 'java':
      return { name: `ProbeZ9k${suffix}`, text: `\nclass ProbeZ9k${suffix} {}\n` };
    default:
      return { name: `probeZ9k${suffix}`, text: `\nexport function probeZ9k${suffix}() {}\n` };
  }
}
