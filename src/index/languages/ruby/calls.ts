/**
 * Ruby call sites. Only `call` nodes count: a bare identifier (`helper`) may be a local variable or a call
 * and the grammar cannot tell, so it is left out. A receiverless call in a method of a class or module is on
 * `self`, as is `self.x`; one in a class body outside methods is a macro of the framework (`has_many`,
 * `before_action`) and one of the language's own statements (`require`, `include`, `raise`) is no call of
 * a declaration. `Foo.new` constructs `Foo`, `Foo.bar` calls a class method of `Foo`, and a variable holds
 * the class it was assigned `Foo.new` of.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolFact, SymbolKind } from '../../facts.js';
import { type CallSite, type CallSyntax, callSiteQuery } from '../shared/call-sites.js';
import { LineScopes } from '../shared/dynamic-call-scopes.js';
import { startLineOf } from '../shared/tree-utils.js';
import type { RubyScopes } from './scope.js';
import { callArgs, named } from './values.js';

/** Kernel and Module methods that work as statements of the language. */
const STATEMENTS = new Set([
  'require',
  'require_relative',
  'load',
  'autoload',
  'include',
  'extend',
  'prepend',
  'attr_reader',
  'attr_writer',
  'attr_accessor',
  'private',
  'protected',
  'public',
  'module_function',
  'private_constant',
  'private_class_method',
  'public_class_method',
  'alias_method',
  'define_method',
  'raise',
  'fail',
  'lambda',
  'proc',
  'loop',
  'catch',
  'throw',
  'block_given?',
  'binding',
]);
const CALLERS: ReadonlySet<SymbolKind> = new Set(['function', 'method']);
const CONTAINERS: ReadonlySet<SymbolKind> = new Set(['class', 'module']);
const CLASS_REFERENCES = new Set(['constant', 'scope_resolution']);

/** `Shop::Orders::Cart` → `Cart`. */
function simpleName(text: string): string {
  return text.split('::').pop() ?? text;
}

/** The call nodes `rubyCallSyntax` reads, found in the extractor's shared walk. */
export const RUBY_CALL_SITES = callSiteQuery(['call']);

export function rubyCallSyntax(scopes: RubyScopes, symbols: readonly SymbolFact[]): CallSyntax {
  const reader = new RubyCallReader(scopes, new LineScopes(symbols, CALLERS, CONTAINERS));
  return { call: (node) => reader.call(node) };
}

class RubyCallReader {
  constructor(
    private readonly scopes: RubyScopes,
    private readonly lines: LineScopes,
  ) {}

  call(node: Node): CallSite | undefined {
    const method = node.childForFieldName('method');
    if (method === null || (method.type !== 'identifier' && method.type !== 'constant')) return undefined;
    const receiver = node.childForFieldName('receiver');
    if (receiver === null) return this.bareCall(method);
    const name = method.text;
    if (receiver.type === 'self') return { name, receiver: 'self', self: true, at: method };
    if (CLASS_REFERENCES.has(receiver.type)) {
      const type = simpleName(receiver.text);
      return name === 'new'
        ? { name: type, construct: true, at: method }
        : { name, receiver: receiver.text, receiverType: type, at: method };
    }
    const type = this.assignedClass(receiver);
    return {
      name,
      receiver: receiver.text,
      ...(type === undefined ? {} : { receiverType: type }),
      at: method,
    };
  }

  /** `helper(x)` on self in a method of a type; `new` there constructs the type itself. */
  private bareCall(method: Node): CallSite | undefined {
    const name = method.text;
    if (STATEMENTS.has(name)) return undefined;
    const line = startLineOf(method);
    const caller = this.lines.callerAt(line);
    const container = this.lines.containerAt(line);
    if (caller === undefined) return container === undefined ? { name } : undefined;
    const owner = this.lines.parentOf(caller);
    if (owner === undefined || !CONTAINERS.has(owner.kind)) return name === 'new' ? undefined : { name };
    return name === 'new' ? { name: owner.name, construct: true } : { name, self: true };
  }

  /** The class a variable was assigned an instance of (`repo = Repo.new`), where the receiver is read. */
  private assignedClass(receiver: Node): string | undefined {
    if (receiver.type !== 'identifier' && receiver.type !== 'instance_variable') return undefined;
    const value = this.scopes.valueOf(receiver);
    if (value?.type !== 'call' || value.childForFieldName('method')?.text !== 'new') return undefined;
    const target = value.childForFieldName('receiver');
    return target !== null && CLASS_REFERENCES.has(target.type) ? simpleName(target.text) : undefined;
  }
}

/** What a class or module builds on: its superclass, then the modules its body `include`s or `prepend`s. */
export function rubySupertypes(superclass: Node | null, body: Node | null): string[] {
  const parent = named(superclass).find((child) => CLASS_REFERENCES.has(child.type));
  const mixins = named(body)
    .filter((statement) => {
      if (statement.type !== 'call' || statement.childForFieldName('receiver') !== null) return false;
      const method = statement.childForFieldName('method')?.text;
      return method === 'include' || method === 'prepend';
    })
    .flatMap((statement) => callArgs(statement).positional)
    .filter((argument) => CLASS_REFERENCES.has(argument.type));
  return [...(parent === undefined ? [] : [parent]), ...mixins].map((node) => node.text.replace(/^::/, ''));
}
