/**
 * The service model: what a workspace declares about its services, learnt from build manifests, Dockerfiles,
 * compose files, Kubernetes manifests, Helm values and framework config — never from guessing at code.
 * `init --auto` proposes roots from it, `admin status` shows it, and HTTP matching resolves hosts and
 * environment variables through it.
 */

/** Where a fact about a service was learnt: a workspace-relative file, its line, and what was read there. */
export interface Learnt {
  readonly file: string;
  readonly line: number;
  /** Short and human: `docker-compose service`, `pom.xml module`, `spring.application.name`. */
  readonly how: string;
}

/**
 * What a folder is: a deployable `service`, a `gateway` (a service that routes requests to others), a
 * `loadgen` (traffic generator), a client `app` (mobile, desktop: it calls services and serves nothing), a
 * `tests` suite, a shared `library`, `contracts` (proto/OpenAPI folders), `docs`, or `deploy` (manifests,
 * or an infrastructure image built with no code of the repository's own).
 */
export type ServiceKind =
  'service' | 'gateway' | 'loadgen' | 'app' | 'tests' | 'library' | 'contracts' | 'docs' | 'deploy';

export interface ServiceName {
  readonly name: string;
  readonly from: Learnt;
}

export interface ServiceEnvVar {
  readonly name: string;
  readonly value: string;
  readonly from: Learnt;
}

export interface ServiceEntry {
  /** Workspace-relative folder, `/`-separated; `.` for the workspace itself. */
  readonly folder: string;
  readonly kind: ServiceKind;
  /** Every name it answers to (compose service, Kubernetes Service, application name, folder…); the first is its display name. */
  readonly names: readonly ServiceName[];
  /** Its environment as deploy manifests set it (compose `environment:`, Kubernetes `env:`/ConfigMaps, Helm values). */
  readonly env: readonly ServiceEnvVar[];
  /** Why the folder is a unit at all (its manifest, Dockerfile or compose `build:`). */
  readonly evidence: readonly Learnt[];
}

export interface ServiceModel {
  readonly entries: readonly ServiceEntry[];
  /** Folders holding source code that no entry covers (workspace-relative). */
  readonly uncovered: readonly string[];
}

/**
 * What HTTP matching needs to know about one root: every name its service answers to (lower-case host
 * names), and its environment as the deploy manifests set it.
 */
export interface RootIdentity {
  readonly names: readonly string[];
  readonly env: ReadonlyMap<string, string>;
  /** Topics declared for the root's service outside its code (a Dapr `Subscription` naming it in `scopes`). */
  readonly topics?: readonly DeclaredTopic[];
}

/** A topic a service produces or consumes by a declaration outside its code. */
export interface DeclaredTopic {
  readonly role: 'producer' | 'consumer';
  readonly topic: string;
  readonly broker: string;
  /** Relative to the root's folder; may lead out of it (`../resources/subscription.yaml`). */
  readonly file: string;
  readonly line: number;
  readonly via: string;
}

/** A configured root as the model sees it. */
export interface RootFolder {
  readonly name: string;
  /** Workspace-relative, `/`-separated; undefined for a root outside the workspace folder. */
  readonly folder: string | undefined;
}

export interface ServiceViewEntry extends ServiceEntry {
  /** The root that indexes the entry's folder (the most specific one holding it, else one inside it). */
  readonly root: string | undefined;
}

export interface ServiceView {
  readonly entries: readonly ServiceViewEntry[];
  /** Folders holding source code that no root covers (workspace-relative, sorted). */
  readonly uncovered: readonly string[];
  /** True when the model's walk stopped at its cap. */
  readonly partial: boolean;
}
