/**
 * Kotlin controllers inherit routes, extracted from source and reconciled: a Spring controller extending a
 * Kotlin or Java base class of another root serves the base's mappings under each of its own prefixes; a
 * class that only implements an interface, or a `@Service` extending a class, inherits none.
 */
import { describe, expect, test } from 'vitest';
import { reconcile } from '../../src/index/graph/reconcile.js';
import { parseFile } from '../../src/index/parse/parser.js';
import type { IndexedFile } from '../../src/index/snapshot.js';
import { indexedFile } from '../helpers/indexed-file.js';

async function parsed(root: string, path: string, source: string): Promise<IndexedFile> {
  const language = path.endsWith('.kt') ? 'kotlin' : 'java';
  const outcome = await parseFile({ path, language, source });
  if (outcome.kind === 'failed') throw new Error(`${path}: ${outcome.reason}`);
  return indexedFile(root, path, outcome.facts, language);
}

async function routesOf(files: Promise<IndexedFile>[]): Promise<string[]> {
  const graph = reconcile({ files: await Promise.all(files), services: new Map() });
  return graph
    .nodesOfKind('http_route')
    .map((node) => `${node.root} ${node.name} ${node.file}`)
    .sort();
}

const kotlinBase = parsed(
  'lib',
  'common/CrudController.kt',
  `package com.shop.common

import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable

abstract class CrudController<T> {
    @GetMapping("/{id}")
    fun byId(@PathVariable id: Long): T = load(id)

    protected abstract fun load(id: Long): T
}
`,
);

const javaBase = parsed(
  'lib',
  'common/AuditController.java',
  `package com.shop.common;

import org.springframework.web.bind.annotation.GetMapping;

public abstract class AuditController {
  @GetMapping("/audit")
  public String audit() {
    return "";
  }
}
`,
);

describe('Kotlin controllers inherit the routes of a base class in another file', () => {
  test('a Kotlin base and a Java base, under every prefix of the subclass', async () => {
    const routes = await routesOf([
      kotlinBase,
      javaBase,
      parsed(
        'orders',
        'orders/OrderController.kt',
        `package com.shop.orders

import com.shop.common.CrudController
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RestController

@RestController
@RequestMapping(["/orders", "/v1/orders"])
class OrderController : CrudController<Order>() {
    override fun load(id: Long): Order = Order(id)
}
`,
      ),
      parsed(
        'orders',
        'orders/AuditsController.kt',
        `package com.shop.orders

import com.shop.common.AuditController
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RestController

@RestController
@RequestMapping("/orders-admin")
class AuditsController : AuditController()
`,
      ),
    ]);
    expect(routes.filter((line) => line.startsWith('orders'))).toEqual([
      'orders GET /orders-admin/audit orders/AuditsController.kt',
      'orders GET /orders/{id} orders/OrderController.kt',
      'orders GET /v1/orders/{id} orders/OrderController.kt',
    ]);
  });

  test('an interface implemented or a service extending the base inherits nothing', async () => {
    const routes = await routesOf([
      kotlinBase,
      parsed(
        'orders',
        'orders/Others.kt',
        `package com.shop.orders

import com.shop.common.CrudController
import org.springframework.stereotype.Service
import org.springframework.web.bind.annotation.RestController

@Service
class OrderService : CrudController<Order>() {
    override fun load(id: Long): Order = Order(id)
}

@RestController
class OrderApi : CrudController<Order>
`,
      ),
    ]);
    expect(routes.filter((line) => line.startsWith('orders'))).toEqual([]);
  });
});
