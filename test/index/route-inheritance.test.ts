import { describe, expect, test } from 'vitest';
import type { ContractFact, SymbolFact } from '../../src/index/facts.js';
import { reconcile } from '../../src/index/graph/reconcile.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { indexedFile } from '../helpers/indexed-file.js';

const classSymbol = (id: number, name: string): SymbolFact => ({
  id,
  kind: 'class',
  name,
  qualifiedName: name,
  startLine: id + 1,
  endLine: 100,
});

const methodSymbol = (id: number, name: string, parent: number, signature?: string): SymbolFact => ({
  id,
  kind: 'method',
  name,
  qualifiedName: name,
  ...(signature === undefined ? {} : { signature }),
  startLine: id + 1,
  endLine: id + 1,
  parent,
});

const route = (method: string, path: string, symbol: number, classPath?: string): ContractFact => ({
  kind: 'http_route',
  method,
  path,
  ...(classPath === undefined ? {} : { classPath }),
  symbol,
  line: symbol * 10,
  via: 'JAX-RS',
});

const inherits = (prefix: string, base: string, symbol: number, line: number): ContractFact => ({
  kind: 'http_mount',
  prefix,
  target: `inherits:${base}`,
  symbol,
  line,
  via: 'extends',
});

const javaFile = (
  root: string,
  path: string,
  pkg: string,
  symbols: SymbolFact[],
  contracts: ContractFact[],
): IndexedFile => indexedFile(root, path, { package: pkg, symbols, contracts }, 'java');

/** A JAX-RS CRUD base in a shared library: its own `@Path("abstract")` is replaced by each subclass's. */
const crudBase = javaFile(
  'lib',
  'src/util/AbstractCRUDEndpoint.java',
  'shop.util',
  [
    classSymbol(0, 'AbstractCRUDEndpoint'),
    methodSymbol(1, 'create', 0),
    methodSymbol(2, 'findById', 0),
    methodSymbol(3, 'listAll', 0),
    methodSymbol(4, 'deleteById', 0),
    methodSymbol(5, 'helper', 0),
  ],
  [
    route('POST', '/abstract', 1, '/abstract'),
    route('GET', '/abstract/{id}', 2, '/abstract'),
    route('GET', '/abstract', 3, '/abstract'),
    route('DELETE', '/abstract/{id}', 4, '/abstract'),
  ],
);

/** Every route node as `root METHOD /path file:line`, sorted. */
function routesOf(files: IndexedFile[]): string[] {
  const graph = reconcile({ files, services: new Map() });
  return graph
    .nodesOfKind('http_route')
    .map((n) => `${n.root} ${n.name} ${n.file}:${n.line}`)
    .sort();
}

describe('inherited routes (http_mount inherits:) are copied into the subclass file', () => {
  test('a JAX-RS resource serves its base class routes under its own prefix and context path', () => {
    const endpoint = javaFile(
      'persistence',
      'src/rest/ProductEndpoint.java',
      'shop.rest',
      [classSymbol(0, 'ProductEndpoint'), methodSymbol(1, 'findById', 0), methodSymbol(2, 'byCategory', 0)],
      [
        inherits('/products', 'shop.util.AbstractCRUDEndpoint', 0, 36),
        // Overrides `findById` with a route of its own: the inherited one is not served.
        route('GET', '/products/by-id/{id}', 1, '/products'),
        route('GET', '/products/category/{c}', 2, '/products'),
        {
          kind: 'http_mount',
          prefix: '/persistence/rest',
          target: 'folder:',
          line: 1,
          via: 'war',
        },
      ],
    );
    expect(routesOf([crudBase, endpoint])).toEqual([
      'lib DELETE /abstract/{id} src/util/AbstractCRUDEndpoint.java:40',
      'lib GET /abstract src/util/AbstractCRUDEndpoint.java:30',
      'lib GET /abstract/{id} src/util/AbstractCRUDEndpoint.java:20',
      'lib POST /abstract src/util/AbstractCRUDEndpoint.java:10',
      'persistence DELETE /persistence/rest/products/{id} src/rest/ProductEndpoint.java:36',
      'persistence GET /persistence/rest/products src/rest/ProductEndpoint.java:36',
      'persistence GET /persistence/rest/products/by-id/{id} src/rest/ProductEndpoint.java:10',
      'persistence GET /persistence/rest/products/category/{c} src/rest/ProductEndpoint.java:20',
      'persistence POST /persistence/rest/products src/rest/ProductEndpoint.java:36',
    ]);
  });

  test('a Spring controller with two prefixes serves a base without class mapping under both', () => {
    const base = javaFile(
      'orders',
      'src/web/CrudController.java',
      'shop.web',
      [classSymbol(0, 'CrudController'), methodSymbol(1, 'get', 0)],
      [route('GET', '/{id}', 1)],
    );
    const controller = javaFile(
      'orders',
      'src/web/OrderController.java',
      'shop.web',
      [classSymbol(0, 'OrderController')],
      [
        inherits('/orders', 'shop.web.CrudController', 0, 12),
        inherits('/v1/orders', 'shop.web.CrudController', 0, 12),
      ],
    );
    expect(routesOf([base, controller])).toEqual([
      'orders GET /orders/{id} src/web/OrderController.java:12',
      'orders GET /v1/orders/{id} src/web/OrderController.java:12',
      'orders GET /{id} src/web/CrudController.java:10',
    ]);
  });

  test('an overload with a route of its own does not hide the inherited method; an override does', () => {
    const base = javaFile(
      'lib',
      'src/Base.java',
      'shop.util',
      [
        classSymbol(0, 'Base'),
        methodSymbol(1, 'findById', 0, 'public Response findById(@PathParam("id") final Long id)'),
        methodSymbol(2, 'update', 0, 'public Response update(@PathParam("id") Long id, final T entity)'),
      ],
      [route('GET', '/base/{id}', 1, '/base'), route('PUT', '/base/{id}', 2, '/base')],
    );
    const users = javaFile(
      'svc',
      'src/UserEndpoint.java',
      'shop.svc',
      [
        classSymbol(0, 'UserEndpoint'),
        methodSymbol(1, 'findById', 0, 'public Response findById(@PathParam("name") final String name)'),
        methodSymbol(
          2,
          'update',
          0,
          'public Response update(@PathParam(value = "id") java.lang.Long id, final User entity)',
        ),
      ],
      [
        inherits('/users', 'shop.util.Base', 0, 36),
        route('GET', '/users/name/{name}', 1, '/users'),
        route('PUT', '/users/{id}/replace', 2, '/users'),
      ],
    );
    expect(routesOf([base, users]).filter((line) => line.startsWith('svc'))).toEqual([
      'svc GET /users/name/{name} src/UserEndpoint.java:10',
      'svc GET /users/{id} src/UserEndpoint.java:36',
      'svc PUT /users/{id}/replace src/UserEndpoint.java:20',
    ]);
  });

  test('a chain of bases is followed, each class hiding the methods it declares again', () => {
    const middle = javaFile(
      'svc',
      'src/MiddleEndpoint.java',
      'shop.svc',
      [classSymbol(0, 'MiddleEndpoint'), methodSymbol(1, 'listAll', 0)],
      [
        inherits('/middle', 'shop.util.AbstractCRUDEndpoint', 0, 5),
        route('GET', '/middle/all', 1, '/middle'),
      ],
    );
    const leaf = javaFile(
      'svc',
      'src/LeafEndpoint.java',
      'shop.svc',
      [classSymbol(0, 'LeafEndpoint')],
      // A wildcard import left the package unknown: found by its simple name, unique in the root.
      [inherits('/leaf', 'shop.other.MiddleEndpoint', 0, 7)],
    );
    expect(routesOf([crudBase, middle, leaf]).filter((line) => line.includes('Leaf'))).toEqual([
      'svc DELETE /leaf/{id} src/LeafEndpoint.java:7',
      'svc GET /leaf/all src/LeafEndpoint.java:7',
      'svc GET /leaf/{id} src/LeafEndpoint.java:7',
      'svc POST /leaf src/LeafEndpoint.java:7',
    ]);
  });

  test('a base without routes, an unknown base or an ambiguous simple name add nothing', () => {
    const plainBase = javaFile(
      'svc',
      'src/BaseResource.java',
      'shop.svc',
      [classSymbol(0, 'BaseResource'), methodSymbol(1, 'version', 0)],
      [],
    );
    const twinA = javaFile(
      'svc',
      'src/a/Twin.java',
      'shop.a',
      [classSymbol(0, 'Twin'), methodSymbol(1, 'x', 0)],
      [route('GET', '/x', 1)],
    );
    const twinB = javaFile(
      'svc',
      'src/b/Twin.java',
      'shop.b',
      [classSymbol(0, 'Twin'), methodSymbol(1, 'y', 0)],
      [route('GET', '/y', 1)],
    );
    const resources = javaFile(
      'svc',
      'src/Resources.java',
      'shop.svc',
      [
        classSymbol(0, 'Health'),
        methodSymbol(1, 'health', 0),
        classSymbol(2, 'Errors'),
        classSymbol(3, 'Twins'),
      ],
      [
        inherits('/health', 'shop.svc.BaseResource', 0, 3),
        route('GET', '/health', 1, '/health'),
        inherits('/errors', 'com.vendor.ErrorBase', 2, 8),
        inherits('/twins', 'shop.c.Twin', 3, 9),
      ],
    );
    expect(routesOf([plainBase, twinA, twinB, resources])).toEqual([
      'svc GET /health src/Resources.java:10',
      'svc GET /x src/a/Twin.java:10',
      'svc GET /y src/b/Twin.java:10',
    ]);
  });
});
