/**
 * The service model seen through configured roots: which root indexes each entry, each root's identity
 * (names lower-cased, environment) for HTTP matching, and the rule for roots above, at and below a unit.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { buildServiceModel } from '../../src/index/services/model.js';
import { rootIdentities, serviceView, type RootFolder } from '../../src/index/services/root-view.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/services');
const identity = (id: { names: readonly string[]; env: ReadonlyMap<string, string> } | undefined) =>
  id && { names: id.names, env: Object.fromEntries(id.env) };

test('a root at a service folder answers to every name of that service, with its deploy environment', () => {
  const { model } = buildServiceModel(path.join(FIXTURES, 'libs-and-services'));
  const roots: RootFolder[] = [
    { name: 'services/orders', folder: 'services/orders' },
    { name: 'services/billing', folder: 'services/billing' },
    { name: 'libs/go', folder: 'libs/go' },
  ];
  const identities = rootIdentities(model.entries, roots);
  expect(identity(identities.get('services/orders'))).toEqual({
    names: ['orders', 'orders-api'],
    env: { BILLING_URL: 'http://billing:8080', SHIPPING_URL: 'http://shipping:5000' },
  });
  expect(identity(identities.get('services/billing'))).toEqual({
    names: ['billing', 'billing-host', 'payments'],
    env: { CURRENCY: 'EUR' },
  });
  expect(identity(identities.get('libs/go'))).toEqual({ names: ['go'], env: {} });
});

test('a root holding several units answers to all of them; a root below its unit takes that unit', () => {
  const nested = buildServiceModel(path.join(FIXTURES, 'nested-units')).model;
  const below = rootIdentities(nested.entries, [{ name: 'cart-src', folder: 'cart/src' }]);
  expect(identity(below.get('cart-src'))).toEqual({ names: ['cart'], env: {} });

  const grouped = buildServiceModel(path.join(FIXTURES, 'grouped'));
  const whole = rootIdentities(grouped.model.entries, [{ name: 'src', folder: 'src' }]);
  expect(identity(whole.get('src'))).toEqual({
    names: ['users', 'cart', 'catalog'],
    env: { CART_URL: 'http://cart', CATALOG_URL: 'http://catalog:8080' },
  });
  // Contracts, docs and deploy folders give no identity.
  expect(rootIdentities(grouped.model.entries, [{ name: 'chart', folder: 'chart' }]).has('chart')).toBe(
    false,
  );
});

test('each entry names the root that indexes it; folders of code outside every root are listed', () => {
  const result = buildServiceModel(path.join(FIXTURES, 'go-cmd'));
  const view = serviceView(result, [
    { name: 'cmd/geo', folder: 'cmd/geo' },
    { name: 'outside', folder: undefined },
  ]);
  expect(view.entries.map((e) => [e.folder, e.root])).toEqual([
    ['cmd/frontend', undefined],
    ['cmd/geo', 'cmd/geo'],
    ['cmd/profile', undefined],
  ]);
  expect(view.uncovered).toEqual(['cmd/frontend', 'cmd/profile', 'internal/store']);
});
