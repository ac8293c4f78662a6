/**
 * Routes a resource class inherits, shared by Java and Kotlin: a JAX-RS resource (`@Path("products") class
 * ProductEndpoint extends AbstractCRUDEndpoint<Product>`) or a Spring controller (`@RequestMapping("/orders")
 * class OrderController extends CrudController<Order>`, Kotlin's `class OrderController :
 * CrudController<Order>()`) serves the routes its superclass's methods declare, under its own class prefix.
 * The superclass usually lives in another file (often a shared library), so this file only says which class
 * it extends and where it serves it (`http_mount` with an `inherits:` target, see facts.ts); the graph
 * copies the routes (graph/route-inheritance.ts).
 */
import type { ContractSink } from './grpc-stub-use.js';
import { type AnnotationInfo, findAnnotation, routePrefixes, type ValueResolver } from './annotations.js';
import { joinPaths } from './route-paths.js';

/** What a class tells about the class it extends and where it serves routes. */
export interface InheritingClass {
  readonly id: number;
  readonly name: string;
  /** Outer classes and name, dotted. */
  readonly qualified: string;
  readonly nameLine: number;
  readonly annotations: readonly AnnotationInfo[];
  /** The class it extends as written, without type arguments (not an interface it implements). */
  readonly superclass: string | undefined;
}

export interface InheritingFile<C extends InheritingClass> {
  readonly classes: readonly C[];
  /** Simple name (or alias) → imported path, for single imports. */
  readonly imports: ReadonlyMap<string, string>;
}

/** Class annotations that make a class serve HTTP routes itself. */
const RESOURCE_ANNOTATIONS: readonly string[] = ['Path', 'RequestMapping', 'RestController', 'Controller'];

/**
 * Packages whose classes declare no routes a controller could inherit: extending them (an exception
 * handler base, a servlet) says nothing about routes, so no mount is emitted for them.
 */
const FRAMEWORK_PACKAGES = /^(?:java|javax|jakarta|kotlin|org\.springframework|io\.micronaut|io\.quarkus)\./;

/**
 * The `inherits:` mounts of the resource classes among `classes` (the file's concrete classes) that extend
 * another class; `resolverOf` reads a class's annotation values.
 */
export function inheritedRouteMounts<C extends InheritingClass>(
  file: InheritingFile<C>,
  classes: readonly C[],
  packageName: string | undefined,
  resolverOf: (cls: C) => ValueResolver,
  facts: ContractSink,
): void {
  for (const cls of classes) {
    if (cls.superclass === undefined) continue;
    if (!RESOURCE_ANNOTATIONS.some((name) => findAnnotation(cls.annotations, name) !== undefined)) continue;
    const base = qualifiedSuperclass(file, cls, packageName);
    if (FRAMEWORK_PACKAGES.test(base)) continue;
    const prefixes = routePrefixes(cls.annotations, resolverOf(cls));
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
 * The superclass as the file names it, qualified where the file tells how: a single import of it (or of
 * its outer class, `Outer.Inner`), a class of this file, else the file's own package (a wildcard import
 * leaves it unknown: the graph then falls back on the simple name).
 */
function qualifiedSuperclass<C extends InheritingClass>(
  file: InheritingFile<C>,
  cls: C,
  packageName: string | undefined,
): string {
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
