/**
 * `Dockerfile` / `Containerfile`: its folder builds an image, so it is deployable. The image it is built from
 * (the last `FROM`) gives a kind: Envoy or Traefik is a gateway, k6 or Locust a load generator, and nginx
 * or OpenResty a gateway when a config beside it proxies requests (`proxy_pass`).
 */
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { kindOfImage, PROXYING_WEB_SERVER, imageWithoutHost } from '../kind-signatures.js';
import { allMatches } from '../text-match.js';
import { joinRel, type WorkspaceFiles } from '../workspace-files.js';

const NAMES = new Set(['Dockerfile', 'Containerfile']);
const PROXY_CONFIG = /(\.conf|\.conf\.template|\.tmpl)$|^nginx/;

/** The nginx config beside the Dockerfile (or one folder down) that forwards requests, with its line. */
function proxyConfig(workspace: WorkspaceFiles, folder: string): { file: string; line: number } | undefined {
  const folders = [folder, ...(workspace.children.get(folder) ?? []).map((name) => joinRel(folder, name))];
  for (const dir of folders)
    for (const name of workspace.filesOf(dir).filter((n) => PROXY_CONFIG.test(n))) {
      const file = joinRel(dir, name);
      const hit = allMatches(workspace.read(file) ?? '', /\b(proxy_pass)\b/g)[0];
      if (hit) return { file, line: hit.line };
    }
  return undefined;
}

/** `locust --host="http://${FRONTEND_ADDR}"` (or `-H URL`) in an ENTRYPOINT or CMD: the host Locust targets. */
const LOCUST_HOST = /^\s*(?:ENTRYPOINT|CMD)\b.*\blocust\b.*?(?:--host[=\s]+|-H\s+)["']?([^"'\s\]]+)/gim;

function locustHost(file: ReadFile): Finding[] {
  return allMatches(file.text, LOCUST_HOST).map((hit) => ({
    type: 'env',
    folder: file.folder,
    env: { name: 'LOCUST_HOST', value: hit.value, from: learnt(file.path, hit.line, 'locust --host') },
  }));
}

function readOne(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  const out: Finding[] = [
    { type: 'unit', folder: file.folder, role: 'deployable', from: learnt(file.path, 1, 'Dockerfile') },
    ...locustHost(file),
  ];
  const froms = allMatches(file.text, /^\s*FROM\s+(?:--\S+\s+)*(\S+)/gim);
  const last = froms[froms.length - 1];
  if (!last) return out;
  // Any stage built from a load-test tool makes a load generator (k6 is often compiled in a builder stage).
  const loadgen = froms
    .map((from) => ({ from, kind: kindOfImage(from.value) }))
    .find((f) => f.kind?.kind === 'loadgen');
  const kind = kindOfImage(last.value) ?? loadgen?.kind;
  const at = kind === loadgen?.kind && loadgen ? loadgen.from : last;
  if (kind)
    out.push({
      type: 'kind',
      folder: file.folder,
      kind: kind.kind,
      from: learnt(file.path, at.line, `built FROM ${kind.what}`),
    });
  else if (PROXYING_WEB_SERVER.test(imageWithoutHost(last.value))) {
    const config = proxyConfig(workspace, file.folder);
    out.push(
      config
        ? {
            type: 'kind',
            folder: file.folder,
            kind: 'gateway',
            from: learnt(config.file, config.line, 'nginx proxy_pass'),
          }
        : {
            type: 'kind',
            folder: file.folder,
            kind: 'service',
            from: learnt(file.path, last.line, 'web server serving its own content'),
          },
    );
  }
  return out;
}

export const dockerfileReader: ManifestReader = {
  id: 'Dockerfile',
  matches: (name) => NAMES.has(name),
  read: (files, workspace) => files.flatMap((file) => readOne(file, workspace)),
};
