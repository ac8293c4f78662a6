/**
 * Topic, queue and subject names from argument values: literals and same-file constants as they are, an
 * environment read as the `${env.NAME}` placeholder the graph resolves against the service's environment
 * (`${env.NAME:default}` with a `??`/`||` fallback), and for cloud queues the last segment of a URL or ARN.
 */
import { type Val } from './values.js';
import { lookup, resolveName, type Resolved, type ValueTables } from './resolve-values.js';

const MAX_DEPTH = 8;

/** The name `val` always denotes, with placeholders for the environment; undefined when it is runtime data. */
export function topicName(val: Val, t: ValueTables, depth = 0): Resolved | undefined {
  return placeholder(val, t, depth) ?? resolveName(val, t);
}

function placeholder(val: Val, t: ValueTables, depth: number): Resolved | undefined {
  if (depth > MAX_DEPTH) return undefined;
  switch (val.k) {
    case 'str':
      return { value: val.v, exact: true };
    case 'env':
      return { value: `\${env.${val.name}}`, exact: false };
    case 'ref': {
      const target = lookup(val, t, depth);
      if (target === undefined) return undefined;
      if (target.kind === 'member') return { value: target.name, exact: false };
      return placeholder(target.val, t, depth + 1);
    }
    case 'cat': {
      let value = '';
      let exact = true;
      for (const part of val.parts) {
        const r = placeholder(part, t, depth + 1);
        if (r === undefined) return undefined;
        value += r.value;
        exact &&= r.exact;
      }
      return { value, exact };
    }
    case 'or': {
      const [first, second] = val.options;
      const head = first === undefined ? undefined : placeholder(first, t, depth + 1);
      // `process.env.TOPIC ?? 'orders'`: the deployed value is the variable, the literal its default.
      if (head?.value.startsWith('${env.') === true && head.value.endsWith('}') && second !== undefined) {
        const fallback = placeholder(second, t, depth + 1);
        if (fallback !== undefined)
          return { value: `${head.value.slice(0, -1)}:${fallback.value}}`, exact: false };
      }
      if (head !== undefined) return head;
      for (const option of val.options.slice(1)) {
        const r = placeholder(option, t, depth + 1);
        if (r !== undefined) return { value: r.value, exact: false };
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The queue or topic a cloud URL or ARN names: `https://sqs.eu-west-1.amazonaws.com/123/orders` → `orders`,
 * `arn:aws:sns:eu-west-1:123:orders` → `orders`. A bare name or a placeholder is kept whole.
 */
export function lastSegment(name: string): string {
  if (/^\$\{[^}]*\}$/.test(name)) return name;
  const cut = name.replace(/\/+$/, '');
  const arn = /^arn:[^:]*:[^:]*:[^:]*:[^:]*:(.+)$/.exec(cut);
  if (arn?.[1] !== undefined) return arn[1];
  const slash = cut.lastIndexOf('/');
  return slash < 0 ? cut : cut.slice(slash + 1);
}

/** The items of an array value, through same-file constants; undefined when it is not a known array. */
export function itemsOf(val: Val, t: ValueTables, depth = 0): readonly Val[] | undefined {
  if (val.k === 'arr') return val.items;
  if (val.k !== 'ref' || depth > MAX_DEPTH) return undefined;
  const target = lookup(val, t, depth);
  return target?.kind === 'val' ? itemsOf(target.val, t, depth + 1) : undefined;
}
