import { describe, expect, test } from 'vitest';
import { type ContractFact, type LanguageId } from '../../src/index/facts.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { indexedFile } from '../helpers/indexed-file.js';

const indexed = (root: string, path: string, language: LanguageId, contracts: ContractFact[]): IndexedFile =>
  indexedFile(root, path, { contracts }, language);

const route = (method: string, path: string, line: number, via = 'express'): ContractFact => ({
  kind: 'http_route',
  method,
  path,
  line,
  via,
});

const mount = (
  prefix: string,
  target: string,
  line: number,
  extra: { names?: string[]; routes?: string; via?: string } = {},
): ContractFact => ({
  kind: 'http_mount',
  prefix,
  target,
  line,
  via: 'mount',
  ...extra,
});

/** Every route node as `root METHOD /path file:line`, sorted. */
function routesOf(files: IndexedFile[]): string[] {
  const graph = reconcile({ files, services: new Map() });
  return graph
    .nodesOfKind('http_route')
    .map((n) => `${n.root} ${n.name} ${n.file}:${n.line}`)
    .sort();
}

describe('route mounts (http_mount) rewrite routes before they are linked', () => {
  test('Express: a router required from another file is served under the prefix it is mounted at', () => {
    const files = [
      indexed('office', 'app.js', 'javascript', [mount('/office', 'import:./bin/router', 32)]),
      indexed('office', 'bin/router.js', 'javascript', [
        route('GET', '/', 9),
        route('POST', '/addOffice', 47),
      ]),
      // Not mounted by anyone: unchanged.
      indexed('office', 'bin/admin.js', 'javascript', [route('GET', '/admin', 3)]),
    ];
    expect(routesOf(files)).toEqual([
      'office GET /admin bin/admin.js:3',
      'office GET /office bin/router.js:9',
      'office POST /office/addOffice bin/router.js:47',
    ]);
  });

  test('nested mounts compose outermost first, a file mounted twice serves under both, cycles end', () => {
    const files = [
      indexed('shop', 'src/server.ts', 'typescript', [
        mount('/api', 'import:./routes/api', 5),
        mount('/', 'import:./routes/root', 6),
      ]),
      indexed('shop', 'src/routes/api.ts', 'typescript', [
        mount('/v1', 'import:./v1', 4),
        mount('/v1-beta', 'import:./v1', 5),
        route('GET', '/health', 8),
      ]),
      indexed('shop', 'src/routes/v1.ts', 'typescript', [
        route('GET', '/orders/{id}', 3),
        // A cycle back to its mounter adds nothing, and ends.
        mount('/loop', 'import:./api', 9),
      ]),
      indexed('shop', 'src/routes/root.ts', 'typescript', [route('GET', '/', 2)]),
    ];
    expect(routesOf(files)).toEqual([
      'shop GET / src/routes/root.ts:2',
      'shop GET /api/health src/routes/api.ts:8',
      'shop GET /api/v1-beta/orders/{id} src/routes/v1.ts:3',
      'shop GET /api/v1/orders/{id} src/routes/v1.ts:3',
    ]);
  });

  test('Flask: a blueprint imported by name gets the url_prefix it is registered with', () => {
    const files = [
      indexed('catalog', 'shop/__init__.py', 'python', [
        mount('/catalog', 'import:.views', 7, { names: ['bp'] }),
      ]),
      indexed('catalog', 'shop/views.py', 'python', [route('GET', '/items/{id}', 5, 'flask')]),
    ];
    expect(routesOf(files)).toEqual(['catalog GET /catalog/items/{id} shop/views.py:5']);
  });

  test('JAX-RS: application path for JAX-RS routes only, inside the WAR context path of the nearest module', () => {
    const java = 'src/main/java/shop/auth';
    const files = [
      // The WAR's context path (from the module's pom.xml) and the Jersey servlet mapping.
      indexed('auth', 'pom.xml', 'maven', [mount('/shop.auth', 'folder:', 5)]),
      indexed('auth', 'src/main/webapp/WEB-INF/web.xml', 'maven', [
        mount('/rest', 'folder:', 20, { routes: 'JAX-RS' }),
      ]),
      indexed('auth', `${java}/rest/CartRest.java`, 'java', [
        route('POST', '/cart/add/{pid}', 57, 'JAX-RS @POST'),
      ]),
      indexed('auth', `${java}/servlet/IndexServlet.java`, 'java', [
        route('GET', '/index', 28, '@WebServlet'),
      ]),
      // A nested module with its own context path: the nearest folder mount wins.
      indexed('auth', 'admin/pom.xml', 'maven', [mount('/admin-ui', 'folder:admin', 4)]),
      indexed('auth', 'admin/src/main/java/shop/Admin.java', 'java', [
        route('GET', '/users', 9, 'JAX-RS @GET'),
      ]),
      // Another root: none of these mounts reach it.
      indexed('image', 'src/main/java/shop/image/ImageRest.java', 'java', [
        route('GET', '/image/state', 98, 'JAX-RS @GET'),
      ]),
    ];
    expect(routesOf(files)).toEqual([
      'auth GET /admin-ui/rest/users admin/src/main/java/shop/Admin.java:9',
      'auth GET /shop.auth/index src/main/java/shop/auth/servlet/IndexServlet.java:28',
      'auth POST /shop.auth/rest/cart/add/{pid} src/main/java/shop/auth/rest/CartRest.java:57',
      'image GET /image/state src/main/java/shop/image/ImageRest.java:98',
    ]);
  });
});
