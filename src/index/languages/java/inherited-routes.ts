/**
 * Routes a resource class inherits: a JAX-RS resource (`@Path("products") class ProductEndpoint extends
 * AbstractCRUDEndpoint<Product>`) or a Spring controller (`@RequestMapping("/orders") class OrderController
 * extends CrudController<Order>`) serves the routes its superclass's methods declare, under its own class
 * prefix. The superclass usually lives in another file (often a shared library), so this file only says
 * which class it extends and where it serves it (`http_mount` with an `inherits:` target, see facts.ts);
 * the graph copies the routes (graph/route-inheritance.ts).
 */
import type { ContractSink } from '../shared/jvm/grpc-stub-use.js';
import { findAnnotation, routePrefixes } from '../shared/jvm/annotations.js';
import { joinPaths } from '../shared/jvm/route-paths.js';
import { type JavaClass, type JavaFile, JavaResolver } from './model.js';

/** Class annotations that make a class serve HTTP routes itself. */
const RESOURCE_ANNOTATIONS: readonly string[] = ['Path', 'RequestMapping', 'RestController', 'Controller'];

/**
 * Packages whose classes declare no routes a controller could inherit: extending them (an exception
 * handler base, a servlet) says nothing about routes, so no mount is emitted for them.
 */
const FRAMEWORK_PACKAGES = /^(?:java|javax|jakarta|kotlin|org\.springframework|io\.micronaut|io\.quarkus)\./;

/** The `inherits:` mounts of the resource classes of a file that extend another class. */
export function inheritedRouteMounts(
  file: JavaFile,
  packageName: string | undefined,
  facts: ContractSink,
): void {
  for (const cls of file.classes) {
    if (cls.kind !== 'class' || cls.superclass === undefined) continue;
    if (!RESOURCE_ANNOTATIONS.some((name) => findAnnotation(cls.annotations, name) !== undefined)) continue;
    const base = qualifiedSuperclass(file, cls, packageName);
    if (FRAMEWORK_PACKAGES.test(base)) continue;
    const prefixes = routePrefixes(cls.annotations, new JavaResolver(file, cls));
    for (const prefix of new Set(prefixes.map((written) => joinPaths('', written)))) {
      facts.addContract({
        kind: 'http_mount',
        prefix,
        target: `inherits:${base}`,
        symbol: cls.id,
        line: cls.nameLine,
        via: `extends ${base.slice(base.lastIndexOf('.') + 1)}`,
      });
    }
  }
}

/**
 * The superclass as the file names it, qualified where the file tells how: a single-type import of it
 * (or of its outer class, `Outer.Inner`), a class of this file, else the file's own package (a wildcard
 * import leaves it unknown: the graph then falls back on the simple name).
 */
function qualifiedSuperclass(file: JavaFile, cls: JavaClass, packageName: string | undefined): string {
  const written = cls.superclass?.replace(/\s+/g, '') ?? '';
  const [head = written, ...rest] = written.split('.');
  const imported = file.imports.get(head);
  if (imported !== undefined) return [imported, ...rest].join('.');
  const local = file.classes.find((other) => other.name === head && other !== cls);
  if (local !== undefined) {
    const qualified = [local.qualified, ...rest].join('.');
    return packageName === undefined ? qualified : `${packageName}.${qualified}`;
  }
  if (rest.length > 0 && /^[a-z]/.test(head)) return written;
  return packageName === undefined ? written : `${packageName}.${written}`;
}
