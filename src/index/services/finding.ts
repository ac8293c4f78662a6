/**
 * What a reader learns from the files it reads, before anything is merged: units (folders that are one
 * buildable thing), deployments (a compose service or Kubernetes workload: names, environment, image), and
 * hints about a folder's kind. `assemble.ts` turns findings into the service model.
 */
import type { Learnt, ServiceEnvVar, ServiceKind, ServiceName } from './types.js';
import type { WorkspaceFiles } from './workspace-files.js';

/**
 * Why a folder is a unit: its own build `manifest`, something that makes it `deployable` (a Dockerfile, an
 * entry point such as a Go `main` package), `built` by a deploy manifest (a compose `build:`, a skaffold
 * artifact, a Dapr app folder), a `member` listed by an aggregating build (Maven `<modules>`, Gradle
 * `include`, npm/Cargo workspaces), or a `marker` file that gives its kind by itself (a `locustfile.py`).
 */
export type UnitRole = 'manifest' | 'deployable' | 'built' | 'member' | 'marker';

export interface UnitFinding {
  readonly type: 'unit';
  readonly folder: string;
  readonly role: UnitRole;
  readonly from: Learnt;
  /** The name the manifest declares (package name, artifactId, module path's last segment). */
  readonly name?: string;
}

/** A build file that lists other units and is not one itself unless it also has code of its own. */
export interface AggregatorFinding {
  readonly type: 'aggregator';
  readonly folder: string;
  readonly from: Learnt;
}

/** A .NET solution: with exactly one deployable unit inside, the solution folder is that unit. */
export interface SolutionFinding {
  readonly type: 'solution';
  readonly folder: string;
  readonly from: Learnt;
}

/** A kind read from a folder's own files (gateway dependencies, a load-test tool). */
export interface KindFinding {
  readonly type: 'kind';
  readonly folder: string;
  /** `service`: a web server image serving content of its own (nginx with a static config). */
  readonly kind: Exclude<ServiceKind, 'library'>;
  readonly from: Learnt;
}

/** A name or environment learnt in a folder's own config (`spring.application.name`, Eureka instance id). */
export interface NameFinding {
  readonly type: 'name';
  readonly folder: string;
  readonly name: ServiceName;
}

/** An environment variable a folder's own files set for its process (Locust's `--host` in an entry point). */
export interface EnvFinding {
  readonly type: 'env';
  readonly folder: string;
  readonly env: ServiceEnvVar;
}

/**
 * One deployed process as a deploy manifest declares it. `folder` is set when the manifest says where its
 * code is (a compose `build:` context); otherwise it is matched to a unit by `image` or by its names.
 */
export interface DeploymentFinding {
  readonly type: 'deployment';
  /** Unique among deployments: `compose:<file>#<service>`, `k8s:<file>#<Kind>/<name>`. */
  readonly key: string;
  readonly folder?: string;
  readonly images: readonly string[];
  readonly names: readonly ServiceName[];
  readonly env: readonly ServiceEnvVar[];
  /** Kinds its image says (an nginx or locust image). */
  readonly kinds: readonly KindFinding['kind'][];
  /** The program it runs (`command:`'s first word, without its folder): picks a `cmd/<name>` binary. */
  readonly command?: string;
  /** Only adds names to the deployment with the same key (a link alias, a Kubernetes Service). */
  readonly alias?: boolean;
  readonly from: Learnt;
}

/** An image built from a folder (skaffold artifacts, compose `build:` + `image:`). */
export interface ImageFinding {
  readonly type: 'image';
  readonly image: string;
  readonly folder: string;
  readonly from: Learnt;
}

export type Finding =
  | UnitFinding
  | AggregatorFinding
  | SolutionFinding
  | KindFinding
  | NameFinding
  | EnvFinding
  | DeploymentFinding
  | ImageFinding;

/** One file a reader reads: its workspace-relative path, folder, name and text. */
export interface ReadFile {
  readonly path: string;
  readonly folder: string;
  readonly name: string;
  readonly text: string;
}

/**
 * A reader of one kind of declaration. It names the files it reads; it is handed all of them at once (a
 * Kubernetes Service and the Deployment it selects may sit in different files), with the workspace for
 * the few look-ups a declaration needs (a workspace glob, a folder's files).
 */
export interface ManifestReader {
  /** Short and human, for tests and errors. */
  readonly id: string;
  matches(fileName: string): boolean;
  read(files: readonly ReadFile[], workspace: WorkspaceFiles): Finding[];
}

export const learnt = (file: string, line: number, how: string): Learnt => ({ file, line, how });
