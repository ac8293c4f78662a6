// Method bodies for the realistic shape: a few plausible statements per language (locals, loops,
// conditions, logging, calls), always syntactically valid, ending with a return of `total`.
import { PHRASES, NOUNS, VERBS, camel, pascal, snake } from './words.mjs';

const LOCALS = [
  'pending',
  'seen',
  'matched',
  'skipped',
  'budget',
  'window',
  'cursor',
  'limit',
  'retries',
  'offset',
];

/** Per language: how the common statements are spelled. `i` is one indentation level. */
export const SYNTAX = {
  typescript: {
    i: '  ',
    decl: (n, e) => `const ${n} = ${e};`,
    mut: (n, e) => `let ${n} = ${e};`,
    add: (n, e) => `${n} += ${e};`,
    ifH: (c) => `if (${c}) {`,
    forH: (coll) => `for (const item of ${coll}) {`,
    close: '}',
    len: (x) => `${x}.length`,
    itemLen: 'item.length',
    log: (msg, v) => `this.logger.debug(\`${msg}: \${${v}}\`);`,
    call: (m, a) => `this.${m}(${a});`,
    filter: (n) => `input.filter((item) => item.length > ${n})`,
    ret: (e) => `return ${e};`,
    comment: (t) => `// ${t}`,
    method: (ws) => camel(ws),
  },
  javascript: null,
  go: {
    i: '\t',
    decl: (n, e) => `${n} := ${e}`,
    mut: (n, e) => `${n} := ${e}`,
    add: (n, e) => `${n} += ${e}`,
    ifH: (c) => `if ${c} {`,
    forH: (coll) => `for _, item := range ${coll} {`,
    close: '}',
    len: (x) => `len(${x})`,
    itemLen: 'len(item)',
    log: (msg, v) => `log.Printf("${msg}: %v", ${v})`,
    call: (m, a) => `_ = ${a}`,
    filter: (n) => `filterLonger(input, ${n})`,
    ret: (e) => `return ${e}, nil`,
    comment: (t) => `// ${t}`,
    method: (ws) => pascal(ws),
  },
  java: {
    i: '    ',
    decl: (n, e) => `var ${n} = ${e};`,
    mut: (n, e) => `int ${n} = ${e};`,
    add: (n, e) => `${n} += ${e};`,
    ifH: (c) => `if (${c}) {`,
    forH: (coll) => `for (String item : ${coll}) {`,
    close: '}',
    len: (x) => `${x}.size()`,
    itemLen: 'item.length()',
    log: (msg, v) => `LOG.debug("${msg}: {}", ${v});`,
    call: (m, a) => `${m}(${a});`,
    filter: (n) => `input.stream().filter(item -> item.length() > ${n}).toList()`,
    ret: (e) => `return ${e};`,
    comment: (t) => `// ${t}`,
    method: (ws) => camel(ws),
  },
  kotlin: {
    i: '    ',
    decl: (n, e) => `val ${n} = ${e}`,
    mut: (n, e) => `var ${n} = ${e}`,
    add: (n, e) => `${n} += ${e}`,
    ifH: (c) => `if (${c}) {`,
    forH: (coll) => `for (item in ${coll}) {`,
    close: '}',
    len: (x) => `${x}.size`,
    itemLen: 'item.length',
    log: (msg, v) => `logger.debug("${msg}: {}", ${v})`,
    call: (m, a) => `${m}(${a})`,
    filter: (n) => `input.filter { it.length > ${n} }`,
    ret: (e) => `return ${e}`,
    comment: (t) => `// ${t}`,
    method: (ws) => camel(ws),
  },
  scala: {
    i: '  ',
    decl: (n, e) => `val ${n} = ${e}`,
    mut: (n, e) => `var ${n} = ${e}`,
    add: (n, e) => `${n} += ${e}`,
    ifH: (c) => `if (${c}) {`,
    forH: (coll) => `for (item <- ${coll}) {`,
    close: '}',
    len: (x) => `${x}.size`,
    itemLen: 'item.length',
    log: (msg, v) => `logger.debug(s"${msg}: $${v}")`,
    call: (m, a) => `${m}(${a})`,
    filter: (n) => `input.filter(_.length > ${n})`,
    ret: (e) => `${e}`,
    comment: (t) => `// ${t}`,
    method: (ws) => camel(ws),
  },
  python: {
    i: '    ',
    decl: (n, e) => `${n} = ${e}`,
    mut: (n, e) => `${n} = ${e}`,
    add: (n, e) => `${n} += ${e}`,
    ifH: (c) => `if ${c}:`,
    forH: (coll) => `for item in ${coll}:`,
    close: null,
    len: (x) => `len(${x})`,
    itemLen: 'len(item)',
    log: (msg, v) => `log.debug("${msg}: %s", ${v})`,
    call: (m, a) => `self.${m}(${a})`,
    filter: (n) => `[item for item in items if len(item) > ${n}]`,
    ret: (e) => `return ${e}`,
    comment: (t) => `# ${t}`,
    method: (ws) => snake(ws),
  },
  rust: {
    i: '    ',
    decl: (n, e) => `let ${n} = ${e};`,
    mut: (n, e) => `let mut ${n} = ${e};`,
    add: (n, e) => `${n} += ${e};`,
    ifH: (c) => `if ${c} {`,
    forH: (coll) => `for item in ${coll}.iter() {`,
    close: '}',
    len: (x) => `${x}.len()`,
    itemLen: 'item.len()',
    log: (msg, v) => `tracing::debug!("${msg}: {:?}", ${v});`,
    call: (m, a) => `self.${m}(${a});`,
    filter: (n) => `input.iter().filter(|item| item.len() > ${n}).collect::<Vec<_>>()`,
    ret: (e) => `${e}`,
    comment: (t) => `// ${t}`,
    method: (ws) => snake(ws),
  },
  csharp: {
    i: '    ',
    decl: (n, e) => `var ${n} = ${e};`,
    mut: (n, e) => `var ${n} = ${e};`,
    add: (n, e) => `${n} += ${e};`,
    ifH: (c) => `if (${c})`,
    forH: (coll) => `foreach (var item in ${coll})`,
    allman: true,
    close: '}',
    len: (x) => `${x}.Count`,
    itemLen: 'item.Length',
    log: (msg, v) => `_logger.LogDebug("${msg}: {Value}", ${v});`,
    call: (m, a) => `${m}(${a});`,
    filter: (n) => `input.Where(item => item.Length > ${n}).ToList()`,
    ret: (e) => `return ${e};`,
    comment: (t) => `// ${t}`,
    method: (ws) => pascal(ws),
  },
  cpp: {
    i: '  ',
    decl: (n, e) => `auto ${n} = ${e};`,
    mut: (n, e) => `std::size_t ${n} = ${e};`,
    add: (n, e) => `${n} += ${e};`,
    ifH: (c) => `if (${c}) {`,
    forH: (coll) => `for (const auto& item : ${coll}) {`,
    close: '}',
    len: (x) => `${x}.size()`,
    itemLen: 'item.size()',
    log: (msg, v) => `std::clog << "${msg}: " << ${v} << '\\n';`,
    call: (m, a) => `${m}(${a});`,
    filter: (n) => `FilterLonger(input, ${n})`,
    ret: (e) => `return ${e};`,
    comment: (t) => `// ${t}`,
    method: (ws) => pascal(ws),
  },
  ruby: {
    i: '  ',
    decl: (n, e) => `${n} = ${e}`,
    mut: (n, e) => `${n} = ${e}`,
    add: (n, e) => `${n} += ${e}`,
    ifH: (c) => `if ${c}`,
    forH: (coll) => `${coll}.each do |item|`,
    close: 'end',
    len: (x) => `${x}.size`,
    itemLen: 'item.size',
    log: (msg, v) => `logger.debug("${msg}: #{${v}}")`,
    call: (m, a) => `${m}(${a})`,
    filter: (n) => `items.select { |item| item.size > ${n} }`,
    ret: (e) => `${e}`,
    comment: (t) => `# ${t}`,
    method: (ws) => snake(ws),
  },
  php: {
    i: '    ',
    decl: (n, e) => `$${n} = ${e};`,
    mut: (n, e) => `$${n} = ${e};`,
    add: (n, e) => `$${n} += ${e};`,
    ifH: (c) => `if (${c}) {`,
    forH: (coll) => `foreach (${coll} as $item) {`,
    close: '}',
    len: (x) => `count(${x})`,
    itemLen: 'strlen($item)',
    log: (msg, v) => `$this->logger->debug("${msg}: " . ${v});`,
    call: (m, a) => `$this->${m}(${a});`,
    filter: (n) => `array_filter($input, fn ($item) => strlen($item) > ${n})`,
    ret: (e) => `return ${e};`,
    comment: (t) => `// ${t}`,
    method: (ws) => camel(ws),
    sigil: '$',
  },
};
SYNTAX.javascript = SYNTAX.typescript;

/** The list a body iterates: `input`, spelled per language. */
const inputOf = (lang) =>
  lang === 'php' ? '$input' : lang === 'python' || lang === 'ruby' ? 'items' : 'input';

/**
 * Body lines of one method, already indented by `base`. Ends with a return of `total`.
 * `peers` are sibling method names a statement may call (same receiver).
 */
export function methodBody(lang, rng, base, target, peers = []) {
  const s = SYNTAX[lang];
  const v = (name) => (s.sigil ? `${s.sigil}${name}` : name);
  const out = [];
  const put = (depth, text) => out.push(base + s.i.repeat(depth) + text);
  const open = (depth, header) => {
    if (s.allman) {
      put(depth, header);
      put(depth, '{');
    } else put(depth, header);
  };
  const close = (depth) => {
    if (s.close) put(depth, s.close);
  };
  put(0, s.mut('total', '0'));
  const used = new Set();
  while (out.length < target) {
    const kind = rng.int(7);
    const local = rng.pick(LOCALS);
    if ((kind === 0 || kind === 5) && used.has(local)) continue;
    if (kind === 0) {
      used.add(local);
      put(0, s.decl(local, s.filter(rng.range(2, 12))));
      put(0, s.add('total', s.len(v(local))));
    } else if (kind === 1) {
      open(0, s.forH(inputOf(lang)));
      open(1, s.ifH(`${s.itemLen} > ${rng.range(3, 40)}`));
      put(2, s.add('total', s.itemLen));
      close(1);
      if (lang === 'python' && out.length % 2 === 0) put(1, `total += 1`);
      close(0);
    } else if (kind === 2) {
      open(0, s.ifH(`${v('total')} > ${rng.range(10, 500)}`));
      put(1, s.log(`${rng.pick(VERBS)} ${rng.pick(NOUNS)} over limit`, v('total')));
      if (lang === 'python') put(1, 'total -= 1');
      close(0);
    } else if (kind === 3) {
      put(0, s.comment(`This ${rng.pick(PHRASES)}.`));
    } else if (kind === 4 && peers.length > 0 && lang !== 'go' && lang !== 'rust' && lang !== 'python') {
      put(0, s.call(rng.pick(peers), inputOf(lang)));
    } else if (kind === 5) {
      used.add(local);
      put(0, s.decl(local, `${v('total')} * ${rng.range(2, 9)} + ${rng.range(1, 99)}`));
      put(0, s.add('total', v(local)));
    } else {
      put(0, s.add('total', `${s.len(inputOf(lang))}`));
    }
  }
  put(0, s.ret(v('total')));
  return out;
}

export { LOCALS };
export const methodWords = (rng) => [rng.pick(VERBS), rng.pick(NOUNS)];
