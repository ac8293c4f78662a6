/**
 * What makes a folder a gateway or a load generator, as data: dependencies its build manifest declares,
 * and images it is built from or deployed as. A new gateway or load-test tool is one entry here.
 */
import { learnt, type KindFinding } from './finding.js';
import { allMatches } from './text-match.js';

type SignatureKind = 'gateway' | 'loadgen' | 'app';

interface Signature {
  readonly kind: SignatureKind;
  /** Matched against a build manifest's text (a dependency coordinate or package name). */
  readonly dependency: RegExp;
  readonly what: string;
}

// prettier-ignore
const DEPENDENCIES: readonly Signature[] = [
  { kind: 'gateway', dependency: /spring-cloud-starter-gateway[\w-]*/g, what: 'Spring Cloud Gateway' },
  { kind: 'gateway', dependency: /spring-cloud-starter-netflix-zuul|\bzuul-core\b/g, what: 'Zuul' },
  { kind: 'gateway', dependency: /\bOcelot\b/g, what: 'Ocelot' },
  { kind: 'gateway', dependency: /\bYarp\.ReverseProxy\b/g, what: 'YARP' },
  { kind: 'gateway', dependency: /["']express-gateway["']/g, what: 'Express Gateway' },
  { kind: 'loadgen', dependency: /(?:^|[\s"'])locust(?:[\s=<>~![;"']|$)/gm, what: 'Locust' },
  { kind: 'loadgen', dependency: /io\.gatling[\w.-]*|gatling-charts-highcharts/g, what: 'Gatling' },
  { kind: 'loadgen', dependency: /ApacheJMeter[\w_-]*|jmeter-maven-plugin/g, what: 'JMeter' },
  { kind: 'loadgen', dependency: /["']k6["']\s*:/g, what: 'k6' },
  { kind: 'app', dependency: /["'](?:react-native|expo|electron|@capacitor\/core|@ionic\/angular)["']\s*:/g, what: 'a client app framework' },
];

interface ImageSignature {
  readonly kind: SignatureKind;
  readonly image: RegExp;
  readonly what: string;
}

/** Matched against an image reference without its registry host (`envoyproxy/envoy:v1.30`). */
// prettier-ignore
const IMAGES: readonly ImageSignature[] = [
  { kind: 'gateway', image: /(^|\/)envoy(proxy)?(\/envoy)?([:@-]|$)/, what: 'Envoy' },
  { kind: 'gateway', image: /(^|\/)traefik([:@]|$)/, what: 'Traefik' },
  { kind: 'gateway', image: /(^|\/)(haproxy|kong)([:@]|$)/, what: 'a proxy' },
  { kind: 'loadgen', image: /(^|\/)(locustio\/locust|locust)([:@]|$)/, what: 'Locust' },
  { kind: 'loadgen', image: /(^|\/)(grafana|loadimpact)\/k6([:@-]|$)/, what: 'k6' },
  { kind: 'loadgen', image: /jmeter([:@]|$)/, what: 'JMeter' },
  { kind: 'loadgen', image: /gatling([:@]|$)/, what: 'Gatling' },
  { kind: 'loadgen', image: /(^|\/)wrk2?([:@]|$)/, what: 'wrk' },
];

/** Web servers that are a gateway only when their config proxies requests on (`proxy_pass`). */
export const PROXYING_WEB_SERVER = /(^|\/)(nginx[\w-]*|openresty)([:@]|$)/;

/** The gateway and load-generator kinds a build manifest's dependencies give its folder. */
export function kindsFromDependencies(folder: string, file: string, text: string): KindFinding[] {
  const out: KindFinding[] = [];
  for (const signature of DEPENDENCIES) {
    const hit = allMatches(
      text,
      new RegExp(`(${signature.dependency.source})`, signature.dependency.flags),
    )[0];
    if (hit)
      out.push({
        type: 'kind',
        folder,
        kind: signature.kind,
        from: learnt(file, hit.line, `${signature.what} dependency`),
      });
  }
  return out;
}

/** Drops a registry host (`ghcr.io/`, `docker.io/library/`) so the signatures see `owner/name:tag`. */
export const imageWithoutHost = (image: string): string =>
  image
    .replace(/^[\w.-]+\.[\w.-]+(:\d+)?\//, '')
    .replace(/^library\//, '')
    .toLowerCase();

/** The kind an image gives (Envoy: gateway; Locust: loadgen), with what it is. */
export function kindOfImage(image: string): { kind: SignatureKind; what: string } | undefined {
  const plain = imageWithoutHost(image);
  const hit = IMAGES.find((signature) => signature.image.test(plain));
  return hit ? { kind: hit.kind, what: hit.what } : undefined;
}

/** The image's repository name without host, owner or tag: `gcr.io/x/adservice:v1` → `adservice`. */
export function imageBaseName(image: string): string {
  const withoutDigest = image.split('@')[0] ?? image;
  const last = withoutDigest.slice(withoutDigest.lastIndexOf('/') + 1);
  return last.replace(/:.*$/, '').toLowerCase();
}
