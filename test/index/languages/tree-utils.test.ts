import { describe, expect, test } from 'vitest';
import {
  joinHttpPath,
  normalizeHttpPath,
  oneLine,
  splitUrl,
  topicOf,
  urlOf,
} from '../../../src/index/languages/shared/tree-utils.js';
import { collectSites, walkSites } from '../../../src/index/languages/shared/site-walk.js';

describe('HTTP path normalisation', () => {
  test.each([
    ['orders/<int:order_id>/', '/orders/{order_id}'],
    ['/files/<path:rest>', '/files/{rest}'],
    ['/orders/{id:int}', '/orders/{id}'],
    ['/payments/{id?}', '/payments/{id}'],
    ['/items/{file_path:path}?q=1#top', '/items/{file_path}'],
    ['/users/:id/posts', '/users/{id}/posts'],
    ['/blog/[...slug]', '/blog/{slug}'],
    ['', '/'],
    ['//a//b/', '/a/b'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeHttpPath(raw)).toBe(expected);
  });

  test('prefixes join without doubled or missing slashes', () => {
    expect(joinHttpPath('/api/', 'orders', '/{id}')).toBe('/api/orders/{id}');
    expect(joinHttpPath('', '')).toBe('/');
  });

  test('an absolute URL splits into base and path', () => {
    expect(splitUrl('http://billing:8080/invoices/{id}?x=1')).toEqual({
      base: 'http://billing:8080',
      path: '/invoices/{id}',
    });
    expect(splitUrl('invoices')).toEqual({ path: '/invoices' });
  });
});

describe('value parts', () => {
  test('a topic is only ever literal text or an env default', () => {
    expect(
      topicOf([
        { t: 'lit', v: 'orders.' },
        { t: 'lit', v: 'created' },
      ]),
    ).toBe('orders.created');
    expect(topicOf([{ t: 'env', name: 'TOPIC', fallback: 'orders' }])).toBe('orders');
    expect(topicOf([{ t: 'env', name: 'TOPIC' }])).toBeUndefined();
    expect(topicOf([{ t: 'expr', name: 'topic' }])).toBeUndefined();
    expect(
      topicOf([
        { t: 'lit', v: 'x.' },
        { t: 'expr', name: 'suffix' },
      ]),
    ).toBeUndefined();
  });

  test('a URL takes an env base, placeholders and a client base', () => {
    expect(
      urlOf([
        { t: 'env', name: 'INV' },
        { t: 'lit', v: '/stock/' },
        { t: 'expr', name: 'sku' },
      ]),
    ).toEqual({
      base: 'env:INV',
      path: '/stock/{sku}',
      exact: true,
    });
    expect(urlOf([{ t: 'lit', v: 'items/1' }], [{ t: 'lit', v: 'http://catalog/v1' }])).toEqual({
      base: 'http://catalog',
      path: '/v1/items/1',
      exact: true,
    });
    expect(
      urlOf([
        { t: 'expr', name: 'base' },
        { t: 'lit', v: '/x' },
      ]),
    ).toEqual({ path: '/x', exact: false });
    expect(urlOf([{ t: 'expr', name: 'url' }])).toBeUndefined();
  });
});

describe('oneLine', () => {
  test.each([
    [
      'func Charge(\n\tctx context.Context,\n\treq *Req,\n) error',
      'func Charge(ctx context.Context, req *Req,) error',
    ],
    ['def  f(a,\r\n      b):', 'def  f(a, b):'],
    ['  @Route( "/x" )\n', '@Route("/x")'],
    ['{\n}', '{}'],
  ])('%j → %j', (text, expected) => {
    expect(oneLine(text)).toBe(expected);
  });

  test('as-written keeps the spacing inside brackets on a line, joining only the line breaks', () => {
    expect(oneLine('@GetMapping({ "/vets" })', 'as-written')).toBe('@GetMapping({ "/vets" })');
    expect(oneLine('@GetMapping({ "/vets" })')).toBe('@GetMapping({"/vets"})');
    expect(oneLine('void f(\n    int a,\n    int b\n)', 'as-written')).toBe('void f(int a, int b)');
  });
});

describe('walkSites', () => {
  const source = [
    'def outer():',
    '    a = call_one("call_in_string()")',
    '    # call_in_comment()',
    '    def inner():',
    '        call_three()',
    '    call_four(call_five())',
    '',
  ].join('\n');

  async function pythonTree() {
    const { Parser, Language } = await import('web-tree-sitter');
    await Parser.init();
    const parser = new Parser();
    parser.setLanguage(await Language.load('node_modules/tree-sitter-python/tree-sitter-python.wasm'));
    return parser.parse(source) as NonNullable<ReturnType<typeof parser.parse>>;
  }

  const SITES = new Set(['call', 'function_definition']);
  const LEAVES = new Set(['string', 'comment']);

  test('visits sites in source order, skips leaves and subtrees a visit handled, never the start node', async () => {
    const tree = await pythonTree();
    try {
      const seen: string[] = [];
      const collect = (start: Parameters<typeof walkSites>[0]) =>
        walkSites(start, SITES, LEAVES, (site, type) => {
          const name = (site.childForFieldName('name') ?? site.childForFieldName('function'))?.text;
          seen.push(`${type} ${name}`);
          return name === 'inner';
        });
      collect(tree.rootNode);
      expect(seen).toEqual([
        'function_definition outer',
        'call call_one',
        'function_definition inner',
        'call call_four',
        'call call_five',
      ]);
      seen.length = 0;
      const outer = tree.rootNode.namedChildren[0];
      if (!outer) throw new Error('no function');
      collect(outer);
      expect(seen).toEqual([
        'call call_one',
        'function_definition inner',
        'call call_four',
        'call call_five',
      ]);
    } finally {
      tree.delete();
    }
  });

  test('collectSites finds for each query, in one walk, what walkSites would visit', async () => {
    const tree = await pythonTree();
    try {
      const queries = [
        { sites: SITES, leaves: LEAVES },
        { sites: new Set(['call', 'string']), leaves: new Set(['function_definition']) },
        { sites: new Set(['identifier']), leaves: new Set(['call']) },
        { sites: new Set(['call']), leaves: new Set<string>() },
      ];
      const found = collectSites(tree.rootNode, queries);
      queries.forEach((query, index) => {
        const expected: string[] = [];
        walkSites(tree.rootNode, query.sites, query.leaves, (site, type) => {
          expected.push(`${type} ${site.startIndex}`);
          return false;
        });
        const got = found[index];
        expect(got?.nodes.map((node, at) => `${got.types[at]} ${node.startIndex}`)).toEqual(expected);
        expect(got?.nodes.map((node) => node.type)).toEqual(got?.types);
      });
      expect(found[3]?.nodes.length).toBe(4);
      expect(found[1]?.nodes).toEqual([]);
    } finally {
      tree.delete();
    }
  });
});
