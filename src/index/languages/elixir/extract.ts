/**
 * Elixir: one walk over the file in source order, each node read in its frame (module, owning symbol,
 * function variables, route prefix) by the readers of declarations, imports, routes, HTTP calls,
 * Phoenix PubSub topics and registered process names.
 */
import type { Node } from 'web-tree-sitter';
import { emptyFacts, type PropertyFact } from '../../facts.js';
import type { Extractor } from '../extractor.js';
import {
  FUNCTION_KEYWORDS,
  MODULE_KEYWORDS,
  STRUCT_KEYWORDS,
  readAttribute,
  readFunction,
  readModule,
  readStruct,
} from './declarations.js';
import { readHttpCall, readHttpoisonLocalCall, readTeslaLocalCall, readTeslaPlug } from './http-calls.js';
import { IMPORT_KEYWORDS, readImport } from './imports.js';
import { collectElixirAmqp } from './amqp.js';
import { elixirCallSyntax } from './calls.js';
import { collectCalls } from '../shared/call-sites.js';
import { readFunctionValue } from './function-values.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { rewriteSidecarCalls } from '../shared/dapr.js';
import type { Frame, Walker } from './model.js';
import { readChildSpec, readProcessStart } from './processes.js';
import { readPubSubCall } from './pubsub.js';
import { readRoute } from './routes.js';
import { callName, named, operatorOf } from './syntax.js';

/** Nodes that hold no call: their subtrees are skipped. */
const LEAVES: ReadonlySet<string> = new Set([
  'comment',
  'identifier',
  'alias',
  'atom',
  'quoted_atom',
  'integer',
  'float',
  'boolean',
  'nil',
  'char',
  'charlist',
  'keyword',
  'quoted_content',
  'escape_sequence',
]);

class ElixirWalk implements Walker {
  readonly facts = new FactBuilder('elixir');
  /** Values of the file's public zero-arity functions, for other modules' calls to them. */
  readonly properties: PropertyFact[] = [];
  /** Short module names the file's `alias` lines give, to their modules. */
  readonly aliases = new Map<string, string>();

  visitChildren(node: Node, frame: Frame): void {
    for (const child of named(node)) this.visit(child, frame);
  }

  visit(node: Node, frame: Frame): void {
    if (LEAVES.has(node.type)) return;
    switch (node.type) {
      case 'call':
        if (this.call(node, frame)) return;
        break;
      case 'unary_operator':
        // Attributes are declared in a module body; inside a function `@name` only reads one.
        if (
          frame.module !== undefined &&
          frame.locals === undefined &&
          readAttribute(this.facts, node, frame.module, this.aliases)
        )
          return;
        break;
      case 'binary_operator':
        this.bind(node, frame);
        break;
      case 'tuple':
        readChildSpec(this.facts, node, frame);
        break;
      default:
        break;
    }
    this.visitChildren(node, frame);
  }

  /** Reads a call; true when its subtree has been read already. */
  private call(node: Node, frame: Frame): boolean {
    const name = callName(node);
    if (name === undefined) return false;
    if (name.receiver !== undefined) {
      readHttpCall(this.facts, node, name, frame);
      readProcessStart(this.facts, node, name, frame);
      readPubSubCall(this.facts, node, name, frame);
      return false;
    }
    const keyword = name.name;
    if (keyword === 'quote') {
      // A quote is a template for the module that injects it: its definitions are not this module's.
      this.visitChildren(node, {
        ...(frame.owner === undefined ? {} : { owner: frame.owner }),
        locals: new Map(),
      });
      return true;
    }
    if (MODULE_KEYWORDS.has(keyword)) {
      readModule(this, node, keyword, frame);
      return true;
    }
    if (FUNCTION_KEYWORDS.has(keyword)) {
      readFunctionValue(this.properties, node, keyword, frame);
      readFunction(this, node, keyword, frame);
      return true;
    }
    if (STRUCT_KEYWORDS.has(keyword)) {
      readStruct(this.facts, node, keyword, frame);
      return true;
    }
    if (IMPORT_KEYWORDS.has(keyword)) {
      readImport(this.facts, node, keyword, frame, this.aliases);
      return true;
    }
    if (frame.routes !== undefined && frame.module?.router !== undefined)
      return readRoute(this, node, keyword, frame);
    // A `use Tesla` or `use HTTPoison.Base` module is its own client: `get("/x")` calls with its base URL.
    if (frame.module?.uses.has('Tesla') === true) {
      if (keyword === 'plug') readTeslaPlug(node, frame);
      else readTeslaLocalCall(this.facts, node, keyword, frame);
    } else if (frame.module?.uses.has('HTTPoison.Base') === true) {
      readHttpoisonLocalCall(this.facts, node, keyword, frame);
    }
    return false;
  }

  /** `name = value` in a function body: later reads of `name` resolve to `value`. */
  private bind(node: Node, frame: Frame): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (
      frame.locals === undefined ||
      operatorOf(node) !== '=' ||
      left?.type !== 'identifier' ||
      right === null
    )
      return;
    frame.locals.set(left.text, right);
  }
}

export const extractElixir: Extractor = (input) => {
  if (input.tree === undefined) return emptyFacts('elixir');
  const walk = new ElixirWalk();
  walk.visitChildren(input.tree.rootNode, {});
  collectElixirAmqp(input.tree.rootNode, input.source, walk.facts);
  const properties = walk.properties;
  const syntax = elixirCallSyntax(walk.facts.symbols, walk.facts.imports, walk.aliases);
  const calls = collectCalls(input.tree.rootNode, syntax, walk.facts.symbols);
  return rewriteSidecarCalls(walk.facts.build({ calls, ...(properties.length === 0 ? {} : { properties }) }));
};
