/**
 * The one list of declaration readers the service model is built from. Adding a manifest kind is one reader
 * file and one entry here; the order does not matter (findings are merged, not overridden).
 */
import type { ManifestReader } from '../finding.js';
import { cargoReader } from './cargo.js';
import { cmakeReader } from './cmake.js';
import { composeReader } from './compose.js';
import { daprCliReader } from './dapr-cli.js';
import { daprRunReader } from './dapr-run.js';
import { dockerfileReader } from './dockerfile.js';
import { dotnetReader } from './dotnet.js';
import { goModuleReader } from './go-module.js';
import { gradleReader } from './gradle.js';
import { helmReader } from './helm.js';
import { kubernetesReader } from './kubernetes.js';
import { loadgenMarkerReader } from './loadgen-markers.js';
import { mavenReader } from './maven.js';
import { nodePackageReader } from './node-package.js';
import { pythonPackagingReader } from './python-packaging.js';
import { skaffoldReader } from './skaffold.js';
import { smallManifestReader } from './small-manifests.js';
import { springConfigReader } from './spring-config.js';

export const MANIFEST_READERS: readonly ManifestReader[] = [
  nodePackageReader,
  goModuleReader,
  mavenReader,
  gradleReader,
  pythonPackagingReader,
  cargoReader,
  cmakeReader,
  dotnetReader,
  smallManifestReader,
  dockerfileReader,
  loadgenMarkerReader,
  composeReader,
  kubernetesReader,
  helmReader,
  skaffoldReader,
  springConfigReader,
  daprRunReader,
  daprCliReader,
];
