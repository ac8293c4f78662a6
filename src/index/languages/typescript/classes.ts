/**
 * Classes of a TypeScript/JavaScript file: the class symbol and its decorators, methods (with parameter
 * decorators), arrow-function fields, and what each field holds (an injected stub, a ClientProxy, a queue)
 * for the contract rules.
 */
import type { Node } from 'web-tree-sitter';
import { holderFromExpr, holderFromType, typeName } from './holders.js';
import { onClassDecorators, onMethodDecorators } from './decorators.js';
import type { ClassState, DecoratorInfo } from './model.js';
import { toVal } from './values.js';
import { cleanDoc, named } from './declaration-text.js';
import { FUNCTION_VALUES, WalkerBase } from './walk.js';
import { bindingType } from './call-types.js';
import { classSupertypes, interfaceSupertypes } from './heritage.js';
import type { MutableSymbol } from '../shared/fact-builder.js';

export abstract class ClassWalker extends WalkerBase {
  protected classDeclaration(
    node: Node,
    parent: number | undefined,
    prefix: string,
    exported: boolean,
    doc: string | undefined,
    outer: readonly DecoratorInfo[],
  ): number {
    const nameNode = node.childForFieldName('name');
    const name = nameNode?.text ?? 'default';
    const own = named(node)
      .filter((c) => c.type === 'decorator')
      .map((d) => this.decorator(d));
    const decorators = [...outer, ...own];
    const body = node.childForFieldName('body');
    const start =
      node.children.find((c) => c !== null && c.type !== 'decorator')?.startIndex ?? node.startIndex;
    const id = this.addSymbol(
      'class',
      name,
      prefix + name,
      node,
      start,
      body?.startIndex ?? node.endIndex,
      this.meta(parent, exported, doc, decorators),
    );
    this.setSupertypes(id, classSupertypes(node));
    const heritage = named(node).find((c) => c.type === 'class_heritage');
    const extendsValue =
      heritage === undefined
        ? undefined
        : named(heritage)
            .find((c) => c.type === 'extends_clause')
            ?.childForFieldName('value');
    const line = (nameNode ?? node).startPosition.row + 1;
    const cls: ClassState = {
      name,
      symbol: id,
      line,
      fields: new Map(),
      ...(extendsValue?.type === 'identifier' ? { extendsName: extendsValue.text } : {}),
    };
    const index = this.state.classes.push(cls) - 1;
    if (!this.state.classByName.has(name)) this.state.classByName.set(name, index);
    onClassDecorators(this.state, cls, decorators, { symbol: id, line });
    if (extendsValue !== null && extendsValue !== undefined) this.visit(extendsValue);
    if (body !== null) this.classBody(body, index, id, `${prefix}${name}.`);
    return id;
  }

  protected classBody(body: Node, index: number, classId: number, prefix: string): void {
    const outer = { symbol: this.symbol, cls: this.cls };
    this.cls = index;
    const cls = this.state.classes[index] as ClassState;
    let decorators: DecoratorInfo[] = [];
    let doc: string | undefined;
    for (const member of named(body)) {
      this.symbol = classId;
      if (member.type === 'comment') {
        if (member.text.startsWith('/**')) doc = cleanDoc(member.text);
        continue;
      }
      if (member.type === 'decorator') {
        decorators.push(this.decorator(member));
        continue;
      }
      const nameNode = member.childForFieldName('name');
      const name = nameNode?.text ?? '';
      if (member.type === 'method_definition' || member.type === 'abstract_method_signature') {
        this.method(member, name, classId, prefix, doc, decorators, cls);
      } else if (member.type === 'public_field_definition') {
        this.field(member, name, classId, prefix, doc, decorators, cls);
      } else this.visit(member);
      decorators = [];
      doc = undefined;
    }
    this.symbol = outer.symbol;
    this.cls = outer.cls;
  }

  protected method(
    member: Node,
    name: string,
    classId: number,
    prefix: string,
    doc: string | undefined,
    decorators: readonly DecoratorInfo[],
    cls: ClassState,
  ): void {
    const params = member.childForFieldName('parameters');
    const paramDecorators =
      params === null
        ? []
        : named(params).flatMap((p) =>
            // Cheaper than listing every parameter's children: a decorated parameter starts with `@`.
            !p.text.startsWith('@')
              ? []
              : named(p)
                  .filter((c) => c.type === 'decorator')
                  .map((d) => this.decorator(d)),
          );
    const body = member.childForFieldName('body');
    const meta = this.meta(classId, false, doc, [...decorators, ...paramDecorators]);
    delete meta.exported;
    const id = this.addSymbol(
      'method',
      name,
      prefix + name,
      member,
      member.startIndex,
      body?.startIndex ?? member.endIndex,
      { ...meta, ...this.bodyLines(body) },
    );
    const nameLine = (member.childForFieldName('name') ?? member).startPosition.row + 1;
    onMethodDecorators(this.state, cls, name, decorators, { symbol: id, line: nameLine });
    this.symbol = id;
    this.fn(member, name === 'constructor' ? { cls, symbol: id } : undefined);
  }

  protected field(
    member: Node,
    name: string,
    classId: number,
    prefix: string,
    doc: string | undefined,
    decorators: readonly DecoratorInfo[],
    cls: ClassState,
  ): void {
    const value = member.childForFieldName('value');
    const own = named(member)
      .filter((c) => c.type === 'decorator')
      .map((d) => this.decorator(d));
    const all = [...decorators, ...own];
    if (value !== null && FUNCTION_VALUES.has(value.type)) {
      const body = value.childForFieldName('body');
      const start =
        member.children.find((c) => c !== null && c.type !== 'decorator')?.startIndex ?? member.startIndex;
      const meta = this.meta(classId, false, doc, all);
      delete meta.exported;
      const id = this.addSymbol(
        'method',
        name,
        prefix + name,
        member,
        start,
        body?.startIndex ?? member.endIndex,
        { ...meta, ...this.bodyLines(body) },
      );
      this.symbol = id;
      this.fn(value);
      return;
    }
    const injectQueue = all.find((d) => d.name === 'InjectQueue')?.args[0];
    const typed = holderFromType(typeName(member.childForFieldName('type')), injectQueue);
    const site = this.site(member);
    const assigned = value === null ? undefined : holderFromExpr(value, site);
    const val = value === null ? undefined : toVal(value, this.locals, this.cls);
    const constant = val !== undefined && val.k !== 'opaque' ? val : undefined;
    const type = bindingType(member.childForFieldName('type'), value);
    // `static readonly TOPIC = '…'` is read as `OrderService.TOPIC`.
    if (constant !== undefined && member.children.some((c) => c?.type === 'static')) {
      this.state.consts.set(`${cls.name}.${name}`, constant);
    }
    cls.fields.set(name, {
      line: (member.childForFieldName('name') ?? member).startPosition.row + 1,
      symbol: classId,
      ...(typed === undefined ? {} : { typed }),
      ...(assigned === undefined ? {} : { assigned }),
      ...(constant === undefined ? {} : { val: constant }),
      ...(type === undefined ? {} : { type }),
    });
    if (value !== null) this.visit(value);
  }

  /**
   * An interface: its symbol, what it extends, and its method signatures as methods of it, so that a call
   * through the interface binds to its method and implementations can be compared by method set.
   */
  protected interfaceDeclaration(
    node: Node,
    parent: number | undefined,
    prefix: string,
    exported: boolean,
    doc: string | undefined,
  ): number {
    const name = node.childForFieldName('name')?.text ?? '';
    const body = node.childForFieldName('body');
    const end = body?.startIndex ?? node.endIndex;
    const meta = this.meta(parent, exported, doc);
    const id = this.addSymbol('interface', name, prefix + name, node, node.startIndex, end, meta);
    this.setSupertypes(id, interfaceSupertypes(node));
    for (const member of body === null ? [] : named(body)) {
      const memberName = member.childForFieldName('name');
      if (member.type !== 'method_signature' || memberName === null) continue;
      this.addSymbol(
        'method',
        memberName.text,
        `${prefix}${name}.${memberName.text}`,
        member,
        member.startIndex,
        member.endIndex,
        { parent: id },
      );
    }
    return id;
  }

  private setSupertypes(id: number, supertypes: readonly string[]): void {
    if (supertypes.length > 0) (this.facts.symbol(id) as MutableSymbol).supertypes = supertypes;
  }
}
