/**
 * Kubernetes Ingress rules: `spec.rules[].http.paths[]` with a `path` (default `/`) and a backend Service
 * (`backend.service.name`, networking.k8s.io/v1; `backend.serviceName`, extensions/v1beta1 and
 * networking/v1beta1), and the default backend. The ingress-nginx `rewrite-target` annotation rewrites the
 * matched path: a literal target replaces it, `/$2` keeps only the captured rest.
 */
import type { YAMLMap } from 'yaml';
import { prefixOfPattern, prefixOfRegex, type ProxyFact } from '../shared/gateway-paths.js';
import type { YamlDoc } from '../shared/yaml-utils.js';

const REWRITE_ANNOTATION = /(?:^|\/)rewrite-target$/;

function backendService(doc: YamlDoc, backend: YAMLMap | undefined): string | undefined {
  return (
    doc.text(doc.get(doc.map(doc.get(backend, 'service')), 'name')) ??
    doc.text(doc.get(backend, 'serviceName'))
  );
}

/** The literal part of a rewrite target before its first capture reference (`/$2` → `''`). */
function rewriteOf(doc: YamlDoc, object: YAMLMap): string | undefined {
  const annotations = doc.map(doc.get(doc.map(doc.get(object, 'metadata')), 'annotations'));
  const entry =
    annotations === undefined
      ? undefined
      : doc.entries(annotations).find((e) => REWRITE_ANNOTATION.test(e.key));
  const target = doc.text(entry?.value);
  if (target === undefined) return undefined;
  const literal = target.split('$')[0] ?? '';
  const prefix = prefixOfPattern(literal);
  return prefix === '/' ? '' : prefix;
}

/** The prefix an Ingress path matches: `/api(/|$)(.*)` (a regex) → `/api`, `/api/*` → `/api`. */
const pathPrefix = (path: string): string =>
  /[()|$^\\]/.test(path) ? prefixOfRegex(path) : prefixOfPattern(path);

/** One `http_proxy` fact per path of an Ingress object (and its default backend). */
export function ingressRoutes(doc: YamlDoc, object: YAMLMap): ProxyFact[] {
  if (doc.text(doc.get(object, 'kind')) !== 'Ingress') return [];
  const spec = doc.map(doc.get(object, 'spec'));
  const rewrite = rewriteOf(doc, object);
  const facts: ProxyFact[] = [];
  const add = (path: string, backend: YAMLMap | undefined, line: number): void => {
    const service = backendService(doc, backend);
    if (service === undefined) return;
    facts.push({
      kind: 'http_proxy',
      prefix: pathPrefix(path),
      target: `service:${service}`,
      ...(rewrite === undefined ? {} : { rewrite }),
      line,
      confidence: 'exact',
      via: 'proxy:ingress',
    });
  };
  for (const rule of doc.seq(doc.get(spec, 'rules'))?.items ?? []) {
    const http = doc.map(doc.get(doc.map(rule), 'http'));
    for (const item of doc.seq(doc.get(http, 'paths'))?.items ?? []) {
      const path = doc.map(item);
      add(doc.text(doc.get(path, 'path')) ?? '/', doc.map(doc.get(path, 'backend')), doc.line(path));
    }
  }
  const fallback = doc.map(doc.get(spec, 'defaultBackend')) ?? doc.map(doc.get(spec, 'backend'));
  if (fallback) add('/', fallback, doc.line(fallback));
  return facts;
}
