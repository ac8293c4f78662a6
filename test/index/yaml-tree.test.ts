/**
 * Aliases in deploy manifests: a compose file shares blocks through anchors (`&x`, `*x`) and merge keys
 * (`<<: *x`). An alias names the last node before it that carries its anchor, even when the anchor is
 * defined again further down, as YAML says and as the `yaml` package's own `Alias.resolve` finds it.
 */
import { describe, expect, test } from 'vitest';
import { get, pairsOf, parseYaml, str, strings } from '../../src/index/services/yaml-tree.js';

const COMPOSE = `x-env: &env
  LOG_LEVEL: info
  REGION: eu
x-image: &image shop/base:1
services:
  orders:
    image: *image
    environment:
      <<: *env
      REGION: us
  billing:
    environment: *env
    labels: &labels [a, b]
  again:
    labels: *labels
x-env-2: &env
  LOG_LEVEL: debug
  late:
    environment: *env
---
plain: *image
`;

function only(text: string) {
  const [doc, ...rest] = parseYaml(text);
  expect(rest).toEqual([]);
  if (doc === undefined) throw new Error('no document parsed');
  return doc;
}

const envOf = (text: string, ...keys: string[]) => {
  const doc = only(text);
  let node = doc.root;
  for (const key of keys) node = get(doc, node, key);
  return Object.fromEntries(pairsOf(doc, node).map((pair) => [pair.key, str(doc, pair.value)]));
};

describe('aliases in a YAML document', () => {
  const [first] = COMPOSE.split('---\n');
  const text = first as string;

  test('a scalar alias reads as its anchor', () => {
    const doc = only(text);
    expect(str(doc, get(doc, get(doc, get(doc, doc.root, 'services'), 'orders'), 'image'))).toBe(
      'shop/base:1',
    );
  });

  test('a merge key brings in the anchored mapping; keys written beside it win', () => {
    expect(envOf(text, 'services', 'orders', 'environment')).toEqual({ LOG_LEVEL: 'info', REGION: 'us' });
  });

  test('a mapping alias and a sequence alias read as what they name', () => {
    expect(envOf(text, 'services', 'billing', 'environment')).toEqual({ LOG_LEVEL: 'info', REGION: 'eu' });
    const doc = only(text);
    const services = get(doc, doc.root, 'services');
    expect(strings(doc, get(doc, get(doc, services, 'again'), 'labels'))).toEqual(['a', 'b']);
  });

  test('an anchor defined again is the one an alias after it names', () => {
    expect(envOf(text, 'x-env-2', 'late', 'environment')).toEqual({ LOG_LEVEL: 'debug' });
    expect(envOf(text, 'services', 'billing', 'environment')).toEqual({ LOG_LEVEL: 'info', REGION: 'eu' });
  });

  test('an alias names an anchor of its own document only', () => {
    const docs = parseYaml(COMPOSE);
    expect(docs.length).toBe(2);
    const second = docs[1];
    if (second === undefined) throw new Error('no second document');
    expect(str(second, get(second, second.root, 'plain'))).toBeUndefined();
  });
});
