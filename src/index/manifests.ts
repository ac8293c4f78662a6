import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Manifests larger than this are not read (a generated lockfile is not a manifest). */
const MANIFEST_READ_CAP = 64 * 1024;

function readSmall(file: string): string | undefined {
  const stats = statSync(file, { throwIfNoEntry: false });
  if (!stats?.isFile() || stats.size > MANIFEST_READ_CAP) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

type Reader = (dir: string) => string | undefined;

/** Each reader returns the name a manifest declares, or undefined. Order is priority. */
const READERS: readonly Reader[] = [
  (dir) => {
    const text = readSmall(path.join(dir, 'package.json'));
    if (!text) return undefined;
    try {
      const name = (JSON.parse(text) as { name?: unknown }).name;
      // `@shop/order-gateway` → `order-gateway`: the scope names the organisation, not the service.
      return typeof name === 'string' && name ? name.replace(/^@[^/]+\//, '') : undefined;
    } catch {
      return undefined;
    }
  },
  (dir) => {
    const text = readSmall(path.join(dir, 'go.mod'));
    const module = text ? /^module\s+(\S+)/m.exec(text)?.[1] : undefined;
    return module?.split('/').pop();
  },
  (dir) => {
    const text = readSmall(path.join(dir, 'Cargo.toml'));
    return text ? /\[package\][^[]*?^name\s*=\s*"([^"]+)"/ms.exec(text)?.[1] : undefined;
  },
  (dir) => {
    const text = readSmall(path.join(dir, 'pyproject.toml'));
    return text ? /\[(?:project|tool\.poetry)\][^[]*?^name\s*=\s*"([^"]+)"/ms.exec(text)?.[1] : undefined;
  },
  (dir) => {
    const text = readSmall(path.join(dir, 'pom.xml'));
    if (!text) return undefined;
    // The project's own artifactId, not the parent's: drop the <parent> block first.
    return /<artifactId>([^<]+)<\/artifactId>/
      .exec(text.replace(/<parent>[\s\S]*?<\/parent>/, ''))?.[1]
      ?.trim();
  },
  (dir) => {
    for (const file of ['settings.gradle.kts', 'settings.gradle']) {
      const text = readSmall(path.join(dir, file));
      const name = text ? /rootProject\.name\s*=\s*["']([^"']+)["']/.exec(text)?.[1] : undefined;
      if (name) return name;
    }
    return undefined;
  },
  (dir) => {
    try {
      return readdirSync(dir)
        .filter((f) => f.endsWith('.csproj'))
        .sort()[0]
        ?.replace(/\.csproj$/, '');
    } catch {
      return undefined;
    }
  },
];

/** The name a root's manifest declares (package.json, go.mod, Cargo.toml, pyproject.toml, pom.xml, settings.gradle, *.csproj). */
export function declaredServiceName(rootPath: string): string | undefined {
  for (const read of READERS) {
    const name = read(rootPath);
    if (name) return name;
  }
  return undefined;
}

/** The service a root holds, by the name its manifest declares, else the root folder's name. */
export function serviceNameOf(rootPath: string): string {
  return declaredServiceName(rootPath) ?? path.basename(rootPath);
}
