/**
 * Per-file facts: what extraction learns from one file, with ids local to that file. Facts are pure data
 * (JSON-serialisable) so that they can cross the worker boundary and live in the persistent cache; the
 * reconciler turns the facts of all files into a snapshot.
 */

/**
 * The id of a registered language (`typescript`, `go`, `proto`, `markdown`…). The languages themselves are
 * declared in `languages/registry.ts`; facts only carry the id, so a fact read from an old cache may name a
 * language that is no longer registered.
 */
export type LanguageId = string;

export type SymbolKind =
  | 'function'
  | 'method'
  | 'class'
  | 'interface'
  | 'struct'
  | 'enum'
  | 'enum_member'
  | 'type'
  | 'const'
  | 'variable'
  | 'field'
  | 'module'
  | 'namespace'
  | 'trait'
  | 'impl'
  | 'grpc_service'
  | 'grpc_method'
  | 'proto_message'
  | 'proto_enum'
  | 'http_endpoint'
  | 'topic'
  | 'saga'
  | 'property'
  | 'heading';

export interface SymbolFact {
  /** Local to the file: the index of this symbol in `FileFacts.symbols`. */
  readonly id: number;
  readonly kind: SymbolKind;
  readonly name: string;
  /** Dotted path inside the file's package/namespace, e.g. `OrderService.createOrder`. */
  readonly qualifiedName: string;
  /** The declaration line(s) without the body, e.g. `async createOrder(req: CreateOrderRequest): Promise<Order>`. */
  readonly signature?: string;
  /** 1-based, inclusive, in the original file. */
  readonly startLine: number;
  readonly endLine: number;
  /** Lines of the body that `include_body: false` replaces by a marker (1-based, inclusive). */
  readonly bodyStartLine?: number;
  readonly bodyEndLine?: number;
  readonly docstring?: string;
  /** Decorators or annotations as written, e.g. `@GrpcMethod('CheckoutService', 'CreateOrder')`. */
  readonly decorators?: readonly string[];
  /** Local id of the enclosing symbol (a method's class). */
  readonly parent?: number;
  readonly exported?: boolean;
  /**
   * Classes, interfaces and traits a type extends or implements, as written (`BaseRepo`, `io.Reader`,
   * `com.shop.Repo<Order>` without type arguments): what `code implementations` and dispatch through an
   * interface follow.
   */
  readonly supertypes?: readonly string[];
  /** Declared inside a preprocessor conditional (`#ifdef X`): it exists only in some builds. */
  readonly conditional?: boolean;
}

/**
 * One call site: a function, method or constructor called by name from inside a declaration (or at the
 * top of the file). Extraction records what the file alone can tell; the call graph (index/calls/) binds it
 * to a declaration through imports, receivers and types once every file is known.
 */
export interface CallFact {
  /** The name called, as the callee declares it (an import alias is undone when the extractor can tell). */
  readonly name: string;
  /** The expression it is called on, as written on one line (`this.repo`, `pb`, `os.path`); absent for a bare call. */
  readonly receiver?: string;
  /**
   * The receiver's type when the file tells it (a typed parameter, field or local, `new T()`, a Go method's
   * receiver): the type's name as written, without pointers or type arguments (`OrderRepo`, `db.Store`).
   */
  readonly receiverType?: string;
  /**
   * The import specifier the callee comes from, as the file's import fact writes it: a call on a module alias
   * (`pb.NewClient`, `ns.f()`, `module.func()`) or of a name imported by name (`import { f }`).
   */
  readonly module?: string;
  /** The call is on the enclosing type's own instance: `this.`/`self.`/a Go receiver, or an implicit `this`. */
  readonly self?: true;
  /** `new T()`, `T{}`, `T(...)` of a class: constructs the type `name`. */
  readonly construct?: true;
  readonly line: number;
  /** Local id of the innermost function or method holding the call; absent at the top of the file. */
  readonly caller?: number;
}

export interface ImportFact {
  /** As written: `@shop/contracts`, `../payment/client`, `github.com/x/y/pb`, `java.util.List`, `"foo.h"`. */
  readonly source: string;
  /** Imported names, when the language names them (`{ A, B }`, `from x import A`). */
  readonly names?: readonly string[];
  readonly line: number;
  /** `export … from` re-exports count as imports too. */
  readonly reexport?: boolean;
  /** Resolved to a workspace path (root-relative) when the extractor or a path alias can tell. */
  readonly resolved?: string;
}

export type Confidence = 'exact' | 'heuristic' | 'ambiguous';

/** A contract fact: one piece of evidence about a gRPC, event or HTTP contract, with its location. */
export type ContractFact =
  | {
      readonly kind: 'grpc_server';
      /** Service as written; may be bare (`PaymentService`) or qualified (`shop.payment.v1.PaymentService`). */
      readonly service: string;
      readonly method?: string;
      readonly symbol?: number;
      readonly line: number;
      readonly confidence: Confidence;
      readonly via: string;
    }
  | {
      readonly kind: 'grpc_client';
      readonly service: string;
      /** Absent for a service-level client (a stub built but no method call traced). */
      readonly method?: string;
      /**
       * A service-level client whose file invokes no method of that service: the stub is constructed (or
       * held) but never called here. It is reported as such and gives no `calls_rpc` edge.
       */
      readonly constructedOnly?: true;
      readonly symbol?: number;
      readonly line: number;
      readonly confidence: Confidence;
      readonly via: string;
    }
  | {
      readonly kind: 'topic_producer' | 'topic_consumer';
      /**
       * The resolved topic key; never a variable name or an expression. It may be a placeholder the
       * reconciler resolves against the service's configuration: `${key}` or `${key:default}` (a config
       * property; MicroProfile and Spring Cloud Stream channels use the channel name as the default),
       * `${env.NAME}` (an environment variable from the service model), `${go:pkg.Name}` (a Go package value),
       * `${ex.Module.fun}` (an Elixir module's function value, see `PropertyFact.key`).
       * AMQP: the exchange a producer publishes to, or the queue when it publishes to the default exchange
       * (`""`); for a consumer, the exchange its queue is bound to, else the queue. Empty when `unresolved`
       * is set.
       */
      readonly topic: string;
      /**
       * The messaging system: `kafka`, `amqp`, `nats`, `redis`, `mqtt`, `sqs`, `sns`, `gcp-pubsub`,
       * `azure-servicebus`, `dapr`, `celery`, `bullmq`, `nestjs`, `jms`, `eventbus` (an in-process or
       * broker-backed bus keyed by event type), `channel` (a framework channel whose broker is configuration).
       */
      readonly broker?: string;
      /**
       * AMQP: the routing key a producer publishes with, or the binding key (may hold `*` and `#`) the
       * consumer's queue is bound with. NATS: the subject pattern a consumer subscribes to when it differs
       * from `topic`.
       */
      readonly routingKey?: string;
      /** AMQP consumer: the queue it reads, when `topic` is the exchange that queue is bound to. */
      readonly queue?: string;
      /**
       * The destination as written (one line, at most 120 characters) when it could not be resolved; `topic`
       * is then `''`. Such a fact is kept and listed as unresolved by the graph, never dropped and never
       * given a name invented from a variable.
       */
      readonly unresolved?: string;
      readonly symbol?: number;
      readonly line: number;
      readonly confidence: Confidence;
      /** The mechanism, e.g. `kafkajs send`, `@KafkaListener`, `pattern:ts-producer`. */
      readonly via: string;
    }
  | {
      readonly kind: 'http_route';
      readonly method: string;
      /** Normalised: leading `/`, parameters as `{name}`. */
      readonly path: string;
      /**
       * The declaring class's own prefix that `path` starts with (JAX-RS `@Path`, Spring `@RequestMapping`
       * on the class), normalised; absent when the class has none. A subclass serving the method under
       * its own prefix replaces it (`http_mount` with an `inherits:` target).
       */
      readonly classPath?: string;
      readonly symbol?: number;
      readonly line: number;
      readonly via: string;
    }
  | {
      readonly kind: 'http_call';
      readonly method: string;
      readonly path: string;
      /**
       * Host or base the call goes to when known: a URL (`http://payment:8080/api`), `env:NAME` (an
       * environment variable), `${key}` (a config property, Spring style, optional `:default`) or
       * `service:NAME` (a service named by a client declaration: Feign `name`, `lb://name`, a Dapr app id).
       */
      readonly base?: string;
      /**
       * The URL expression as written (one line, at most 120 characters) when the path could not be
       * resolved to a literal template; `path` then holds the part that is known (possibly `/`). Such a
       * call is kept and listed as unresolved when it matches no route, never dropped.
       */
      readonly unresolved?: string;
      readonly symbol?: number;
      readonly line: number;
      readonly confidence: Confidence;
      readonly via: string;
    }
  | {
      /** A gateway or proxy forwarding requests under a path prefix to a service (Zuul, Spring Cloud Gateway, nginx, Envoy, Ingress, Traefik). */
      readonly kind: 'http_proxy';
      /** The gateway-side path prefix, normalised (`/api/orders`; `/` for everything). */
      readonly prefix: string;
      /** Where it forwards: same forms as `http_call.base`. */
      readonly target: string;
      /** The prefix the target receives instead of `prefix` (`''` when stripped); absent: unchanged. */
      readonly rewrite?: string;
      readonly symbol?: number;
      readonly line: number;
      readonly confidence: Confidence;
      readonly via: string;
    }
  | {
      /**
       * Routes served under a path prefix they do not spell themselves: a router mounted by another file
       * (`app.use('/api', require('./routes'))`, Flask `register_blueprint(bp, url_prefix=…)`, FastAPI
       * `include_router(r, prefix=…)`), a JAX-RS `@ApplicationPath` or a Jersey servlet's `url-pattern`, a
       * WAR's context path. The reconciler rewrites the matching routes before it links calls to them
       * (graph/route-mounts.ts); the route facts of a file never change with the files that mount it.
       */
      readonly kind: 'http_mount';
      /** Normalised like a route path (`/api`); `/` mounts at the top, which changes nothing. */
      readonly prefix: string;
      /**
       * Which routes get the prefix:
       * - `import:<specifier>`: the routes declared in the file this mounting file imports with that
       *   specifier, resolved exactly like an import of this file (`import:./bin/router`, `import:.views`
       *   with `names: ['bp']`). Mounts compose: the routes of a file mounted by a file that is itself
       *   mounted get both prefixes, outermost first.
       * - `folder:<root-relative folder>`: every route declared in a file under that folder of this file's
       *   root (`folder:` alone: the whole root), e.g. a Maven module's WAR context path. Only the nearest
       *   such folder counts for each kind of mount (with or without `routes`); a folder mount applies
       *   outside every `import:` mount, and one without `routes` outside one with it.
       * - `inherits:<class>`: the mounting class (`symbol`) extends `<class>` (qualified as the extractor
       *   resolved it through imports or the package, e.g. `inherits:com.shop.util.AbstractCRUDEndpoint`)
       *   and serves the routes that class's methods declare, with `prefix` in place of that class's own
       *   `classPath`; the copies belong to this file (this fact's line), so this file's other mounts apply
       *   to them. The class is looked up by qualified name, else by its simple name when unique in this
       *   root, then in the workspace; a method this class declares routes for itself is not inherited.
       */
      readonly target: string;
      /** For `import:`: the names imported, when the language imports by name (as `ImportFact.names`). */
      readonly names?: readonly string[];
      /** For `import:`: the root-relative file the specifier names, when the extractor can tell. */
      readonly resolved?: string;
      /** Only routes whose `via` starts with this (`JAX-RS` under an `@ApplicationPath`); absent: all. */
      readonly routes?: string;
      readonly symbol?: number;
      readonly line: number;
      readonly via: string;
    }
  | {
      readonly kind: 'saga';
      readonly name: string;
      readonly symbol?: number;
      readonly line: number;
      readonly via: string;
    };

/** A protobuf service as declared in a `.proto` file. */
export interface ProtoServiceFact {
  readonly package: string;
  readonly name: string;
  readonly line: number;
  readonly methods: readonly {
    readonly name: string;
    readonly line: number;
    readonly requestType: string;
    readonly responseType: string;
    readonly clientStreaming: boolean;
    readonly serverStreaming: boolean;
  }[];
}

/** A Markdown section for docs search. */
export interface DocSectionFact {
  readonly title: string;
  readonly level: number;
  readonly startLine: number;
  readonly endLine: number;
  /** Text with prompt-injection phrases already replaced. */
  readonly text: string;
}

/** A flattened configuration property (Spring `application*.yml`/`.properties`), secrets masked. */
export interface PropertyFact {
  /**
   * The flattened key (`spring.kafka.topic`). Besides configuration files, code declares a few keys that
   * placeholders in topic facts name: `env.NAME` (a deploy manifest's environment), `go:pkg.Name` (a Go
   * package-level value) and `ex.<Module>.<function>` (an Elixir public zero-arity function returning a
   * constant string, read by another module as `${ex.<Module>.<function>}`).
   */
  readonly key: string;
  readonly value: string;
  readonly line: number;
  /**
   * The Spring profile the property applies under: from the file name (`application-docker.yml`) or its
   * document's `spring.config.activate.on-profile` (`spring.profiles`); absent: the default profile.
   */
  readonly profile?: string;
}

export interface FileFacts {
  readonly language: LanguageId;
  /** Package, module or namespace declared in the file (`shop.payment.v1`, `main`, `com.shop.billing`). */
  readonly package?: string;
  readonly symbols: readonly SymbolFact[];
  readonly imports: readonly ImportFact[];
  readonly contracts: readonly ContractFact[];
  /** Call sites, by line; absent for files without code (or whose language records none yet). */
  readonly calls?: readonly CallFact[];
  readonly protoServices?: readonly ProtoServiceFact[];
  readonly sections?: readonly DocSectionFact[];
  readonly properties?: readonly PropertyFact[];
}

export const emptyFacts = (language: LanguageId): FileFacts => ({
  language,
  symbols: [],
  imports: [],
  contracts: [],
});
