import { compareStrings as cmp } from '../../../core/order.js';
import { compareEnum } from './compare-enum.js';
import { compareMessage } from './compare-message.js';
import { compareService } from './compare-service.js';
import { ComparisonContext } from './comparison-context.js';
import type { WireFinding } from './findings.js';
import { indexLines } from './line-index.js';
import { parseSchema } from './parse-schema.js';
import type { SchemaModel } from './schema-model.js';

const sorted = <T>(map: ReadonlyMap<string, T>): [string, T][] =>
  [...map.entries()].sort(([a], [b]) => cmp(a, b));

/** Every element of the base, by name, against the working tree; breaking findings first, then by line. */
function compareSchemas(context: ComparisonContext): WireFinding[] {
  const { base, head } = context.pair;
  if (base.package !== head.package) {
    const hasServices = base.services.size > 0;
    context.add(
      hasServices ? 'breaking' : 'warning',
      'package_changed',
      head.package || '(no package)',
      `package changed \`${base.package || '(none)'}\` → \`${head.package || '(none)'}\`: every fully-qualified name changes` +
        (hasServices ? ' (gRPC method paths, `Any` type URLs)' : ' (`Any` type URLs, JSON type names)'),
      '',
      'head',
    );
  }
  // A removed type is not itself a wire break; the fields that used it are reported where they change.
  const typeRemoved = (kind: 'message' | 'enum', name: string) =>
    context.add(
      'warning',
      'type_removed',
      context.qualify(name),
      `${kind} \`${name}\` removed: not a wire break by itself, but every file that imports it stops compiling; fields that used it are reported on their own`,
      name,
      'base',
    );
  for (const [name, message] of sorted(base.messages)) {
    const now = head.messages.get(name);
    if (now) compareMessage(context, message, now);
    else typeRemoved('message', name);
  }
  for (const [name, en] of sorted(base.enums)) {
    const now = head.enums.get(name);
    if (now) compareEnum(context, en, now);
    else typeRemoved('enum', name);
  }
  for (const [name, service] of sorted(base.services))
    compareService(context, service, head.services.get(name));
  return context.findings.sort(
    (a, b) =>
      (a.severity === b.severity ? 0 : a.severity === 'breaking' ? -1 : 1) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      cmp(a.element, b.element) ||
      cmp(a.message, b.message),
  );
}

/** Compares two versions of one `.proto`; throws when either does not parse (the message says which). */
export function compareProtoTexts(baseText: string, headText: string): WireFinding[] {
  let base: SchemaModel;
  let head: SchemaModel;
  try {
    base = parseSchema(baseText);
  } catch (error) {
    throw new Error(`the base version does not parse: ${(error as Error).message}`, { cause: error });
  }
  try {
    head = parseSchema(headText);
  } catch (error) {
    throw new Error(`the working-tree version does not parse: ${(error as Error).message}`, { cause: error });
  }
  return compareSchemas(new ComparisonContext({ base, head }, indexLines(headText), indexLines(baseText)));
}
