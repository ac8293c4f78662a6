/**
 * C# HTTP client calls, read with the tables of `http-clients.ts`: `HttpClient` requests (on a client
 * bound by type, by `factory.CreateClient("name")` or by construction), request messages sent with
 * `SendAsync`, Dapr service invocation, and the methods of declarative (Refit, RestEase) interfaces.
 * Calls are kept until the walk ends, because the base address may be set later in the file: on the
 * client itself, in the registration of a named or typed client (`services.AddHttpClient<T>(c =>
 * c.BaseAddress = …)`), or by a declarative client's factory (`RestService.For<IApi>(url)`).
 */
import type { Node } from 'web-tree-sitter';
import type { PropertyFact } from '../../facts.js';
import type { CsBinding } from './contracts.js';
import {
  CLIENT_REGISTRATIONS,
  DAPR_INVOKE_METHODS,
  daprTarget,
  DECLARATIVE_CLIENTS,
  DECLARATIVE_VERBS,
  HTTP_CLIENT_METHODS,
  SEND_METHODS,
} from './http-clients.js';
import { innermostClass, type CsFrame, type CsScope } from './scope.js';
import { csArguments, csDotted, csLiteral, kids, resolveCs } from './values.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { httpCallFact } from '../shared/http-call.js';
import { startLineOf, topicOf, urlOf, type Parts } from '../shared/tree-utils.js';

type HttpBinding = CsBinding & { kind: 'http' };

/** An HTTP call kept until the walk ends. */
interface PendingHttp {
  readonly verb: string;
  readonly url: Parts;
  readonly expression: string;
  readonly binding?: HttpBinding;
  /** The class the call is made from: a typed client's registration gives its base. */
  readonly className?: string;
  /** The Dapr app the call goes to. */
  readonly service?: Parts;
  readonly proven: boolean;
  readonly via: string;
  readonly line: number;
  readonly owner: number | undefined;
  /** A method of a declarative client interface (Refit, RestEase): its base is its registration's. */
  readonly declarative?: true;
}

/** What a registration's `BaseAddress` assignment configures: a named client, a typed client, or both. */
interface RegisteredClient {
  readonly name?: string;
  readonly type?: string;
}

/** One call on a receiver, as the walk found it. */
export interface CsCallSite {
  readonly node: Node;
  readonly method: string;
  readonly binding: CsBinding | undefined;
  readonly receiverName: string;
  readonly typeArguments: readonly Node[];
  readonly frame: CsFrame;
  readonly owner: number | undefined;
}

export class CsHttpCalls {
  private readonly pending: PendingHttp[] = [];
  /** `BaseAddress = new Uri(…)` on receivers the walk could not bind. */
  private readonly looseBases: Parts[] = [];
  private readonly namedBases = new Map<string, Parts>();
  private readonly typedBases = new Map<string, Parts>();
  /** Where each named or typed client's base was configured, for the property other files resolve. */
  private readonly baseLines = new Map<string, number>();
  /** `BaseAddress` assignments inside a registration's lambda, by node id. */
  private readonly registered = new Map<number, RegisteredClient>();

  constructor(
    private readonly scope: CsScope,
    private readonly facts: FactBuilder,
    /** What an argument expression holds where the call is (a variable, a field, a `new` in place). */
    private readonly bind: (node: Node | null, frame: CsFrame) => CsBinding | undefined,
  ) {}

  /** Whether a call of this name may be an HTTP call or a client registration. */
  static handles(method: string): boolean {
    return (
      HTTP_CLIENT_METHODS.has(method) ||
      SEND_METHODS.has(method) ||
      DAPR_INVOKE_METHODS.has(method) ||
      CLIENT_REGISTRATIONS.has(method) ||
      method === 'For'
    );
  }

  /** `x.BaseAddress = …`: the base of the client `x` holds, of a registered client, or a file-wide fallback. */
  baseAddress(assignment: Node, held: CsBinding | undefined, base: Parts): void {
    const registration = this.registered.get(assignment.id);
    if (registration !== undefined) {
      const line = startLineOf(assignment);
      if (registration.name !== undefined) this.setBase(this.namedBases, registration.name, base, line);
      if (registration.type !== undefined) this.setBase(this.typedBases, registration.type, base, line);
    } else if (held?.kind === 'http') held.base = base;
    else this.looseBases.push(base);
  }

  /** Reads a call that `handles` accepted. */
  call(site: CsCallSite): void {
    const { method, binding } = site;
    if (CLIENT_REGISTRATIONS.has(method)) this.registration(site);
    else if (method === 'For') this.declarativeFactory(site);
    else if (DAPR_INVOKE_METHODS.has(method) && (binding?.kind === 'dapr' || /dapr/i.test(site.receiverName)))
      this.daprInvocation(site);
    else this.request(site);
  }

  private request({ node, method, binding, receiverName, frame, owner }: CsCallSite): void {
    const known = HTTP_CLIENT_METHODS.get(method);
    const proven = binding?.kind === 'http';
    const args = csArguments(node.childForFieldName('arguments'));
    const values = this.scope.valueScope(frame);
    const common = {
      ...(binding?.kind === 'http' ? { binding } : {}),
      ...this.classOf(frame),
      proven,
      line: startLineOf(node),
      owner,
      via: `HttpClient ${method}`,
    };
    if (known !== undefined) {
      if (!proven && (binding !== undefined || (!known.distinctive && !/http/i.test(receiverName)))) return;
      const url = args.positional[0] ?? args.named.get('requestUri');
      if (url !== undefined)
        this.pending.push({ ...common, verb: known.verb, url: resolveCs(url, values), expression: url.text });
      return;
    }
    if (!SEND_METHODS.has(method) || (!proven && (binding !== undefined || !/http/i.test(receiverName))))
      return;
    const request = this.bindingOf(args.positional[0] ?? args.named.get('request'), frame);
    if (request?.kind === 'request') this.pending.push({ ...common, ...requestFields(request) });
  }

  /** `dapr.InvokeMethodAsync(HttpMethod.Get, "orders", "orders/1")` or `(request)` built by the client. */
  private daprInvocation({ node, method, frame, owner }: CsCallSite): void {
    const values = this.scope.valueScope(frame);
    const common = { proven: true, line: startLineOf(node), owner, via: `Dapr ${method}` };
    const target = daprTarget(node, values);
    if (target !== undefined) {
      const { verb, method: url, appId: service, expression } = target;
      this.pending.push({ ...common, verb, url, expression, service });
      return;
    }
    const args = csArguments(node.childForFieldName('arguments'));
    const request = this.bindingOf(args.positional[0] ?? args.named.get('request'), frame);
    if (request?.kind === 'request') this.pending.push({ ...common, ...requestFields(request) });
  }

  /**
   * `services.AddHttpClient("orders", c => c.BaseAddress = …)`, `AddHttpClient<IOrders, Orders>(…)`,
   * `AddRefitClient<IOrdersApi>().ConfigureHttpClient(c => …)`: the `BaseAddress` assignments in the
   * lambdas configure the registered client when the walk reaches them.
   */
  private registration({ node, method, typeArguments }: CsCallSite): void {
    const registered =
      method === 'ConfigureHttpClient' ? this.chainedRegistration(node) : registrationOf(node, typeArguments);
    if (registered === undefined) return;
    for (const argument of csArguments(node.childForFieldName('arguments')).positional) {
      if (argument.type !== 'lambda_expression') continue;
      for (const assignment of argument.descendantsOfType('assignment_expression')) {
        const left = assignment?.childForFieldName('left');
        if (
          left?.type === 'member_access_expression' &&
          csDotted(left.childForFieldName('name')) === 'BaseAddress'
        )
          this.registered.set(assignment?.id ?? -1, registered);
      }
    }
  }

  /** The registration a `ConfigureHttpClient` is chained to, through other builder calls. */
  private chainedRegistration(node: Node): RegisteredClient | undefined {
    for (
      let current = receiverOf(node);
      current?.type === 'invocation_expression';
      current = receiverOf(current)
    ) {
      const name = current.childForFieldName('function')?.childForFieldName('name');
      if (name !== null && name !== undefined && CLIENT_REGISTRATIONS.has(csDotted(name) ?? '')) {
        const typeArguments = kids(kids(name).find((child) => child.type === 'type_argument_list'));
        if (csDotted(name) !== 'ConfigureHttpClient') return registrationOf(current, typeArguments);
      }
    }
    return undefined;
  }

  /** `RestService.For<IOrdersApi>("http://orders")` or `(httpClient)`: the interface's base. */
  private declarativeFactory({ node, receiverName, typeArguments, frame }: CsCallSite): void {
    const factory = DECLARATIVE_CLIENTS.some((client) => client.factory === receiverName);
    const type = csDotted(typeArguments.at(-1))?.split('.').pop();
    const first = csArguments(node.childForFieldName('arguments')).positional[0];
    if (!factory || type === undefined || first === undefined) return;
    const held = this.bindingOf(first, frame);
    const base = held?.kind === 'http' ? held.base : resolveCs(first, this.scope.valueScope(frame));
    if (base !== undefined) this.setBase(this.typedBases, type, base, startLineOf(node));
  }

  private setBase(bases: Map<string, Parts>, client: string, base: Parts, line: number): void {
    bases.set(client, base);
    if (!this.baseLines.has(client)) this.baseLines.set(client, line);
  }

  /** `[Get("/orders/{id}")]` on a method of a declarative client interface. */
  declarativeMethod(
    attribute: { readonly name: string; readonly template?: string },
    library: string,
    className: string,
    line: number,
    owner: number,
  ): void {
    const verb = DECLARATIVE_VERBS.get(attribute.name);
    if (verb === undefined || attribute.template === undefined) return;
    const url: Parts = [{ t: 'lit', v: attribute.template }];
    const expression = JSON.stringify(attribute.template);
    const via = `${library} [${attribute.name}]`;
    this.pending.push({
      verb,
      url,
      expression,
      className,
      proven: true,
      via,
      line,
      owner,
      declarative: true,
    });
  }

  /**
   * Emits the facts; returns the bases of the clients this file registers, as properties a client in
   * another file of the service resolves (`dotnet.httpclient.<name or type>`).
   */
  finish(): PropertyFact[] {
    const looseBase = this.looseBases.length === 1 ? this.looseBases[0] : undefined;
    for (const call of this.pending) {
      const named = call.binding?.clientName;
      const clientBase =
        call.binding?.base ??
        (named === undefined ? undefined : this.namedBases.get(named)) ??
        (call.className === undefined ? undefined : this.typedBases.get(call.className)) ??
        looseBase ??
        registeredElsewhere(call, named);
      const fact = httpCallFact({ ...call, method: call.verb, url: call.url, clientBase });
      const service = call.service ?? call.binding?.service;
      if (service !== undefined && fact.base === undefined) {
        const appId = topicOf(service);
        if (appId !== undefined) fact.base = `service:${appId}`;
        else fact.unresolved ??= call.expression;
      }
      this.facts.addContract(fact, { owner: call.owner });
    }
    return [...this.namedBases, ...this.typedBases].flatMap(([client, base]) => {
      const value = baseValue(base);
      return value === undefined
        ? []
        : [{ key: `${REGISTERED_BASE}${client}`, value, line: this.baseLines.get(client) ?? 1 }];
    });
  }

  private bindingOf(node: Node | undefined, frame: CsFrame): CsBinding | undefined {
    return node === undefined ? undefined : this.bind(node, frame);
  }

  private classOf(frame: CsFrame): { className?: string } {
    const name = innermostClass(frame)?.name;
    return name === undefined ? {} : { className: name };
  }
}

/** The property key prefix of a registered client's base (`AddHttpClient<Catalog>(c => c.BaseAddress = …)`). */
const REGISTERED_BASE = 'dotnet.httpclient.';

/**
 * An injected `HttpClient` (a typed client) or a named client whose registration is in another file (the
 * usual `Program.cs`): its base is the property that registration gives, resolved at graph time.
 */
function registeredElsewhere(call: PendingHttp, named: string | undefined): Parts | undefined {
  const injected = call.binding !== undefined && call.binding.base === undefined && !call.binding.service;
  if (!injected && call.declarative !== true) return undefined;
  const client = named ?? call.className;
  return client === undefined ? undefined : [{ t: 'config', key: `${REGISTERED_BASE}${client}` }];
}

/** A registered base as a property value: a URL (with its path), `${NAME}` for an environment read. */
function baseValue(base: Parts): string | undefined {
  const url = urlOf(base);
  if (url?.base === undefined) return undefined;
  const host = url.base.startsWith('env:') ? `\${${url.base.slice(4)}}` : url.base;
  return url.path === '/' || url.path === '' ? host : `${host}${url.path}`;
}

function requestFields(request: CsBinding & { kind: 'request' }): {
  verb: string;
  url: Parts;
  expression: string;
  service?: Parts;
} {
  const { verb, url, expression, service } = request;
  return service === undefined ? { verb, url, expression } : { verb, url, expression, service };
}

function receiverOf(node: Node): Node | null {
  const callee = node.childForFieldName('function');
  return callee?.type === 'member_access_expression' ? callee.childForFieldName('expression') : null;
}

/** The name (first literal argument) and implementation type (last type argument) a registration gives. */
function registrationOf(node: Node, typeArguments: readonly Node[]): RegisteredClient | undefined {
  const { positional, named } = csArguments(node.childForFieldName('arguments'));
  const name = csLiteral(positional[0] ?? named.get('name'));
  const type = csDotted(typeArguments.at(-1))?.split('.').pop();
  if (name === undefined && type === undefined) return undefined;
  return { ...(name === undefined ? {} : { name }), ...(type === undefined ? {} : { type }) };
}
