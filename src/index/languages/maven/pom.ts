/**
 * A Maven module packaged as a WAR is deployed on a servlet container under its context path, by default
 * the WAR's file name: `<build><finalName>`, else `${artifactId}-${version}`. Every route of the module is
 * served under it: one `http_mount` over the module's folder.
 *
 * Not a context path: a Spring Boot executable WAR (`spring-boot-maven-plugin`) runs on an embedded
 * container at `/` (its context path is a Spring property, read elsewhere); a `finalName` whose
 * placeholders cannot be resolved from the POM itself yields nothing rather than a guess.
 */
import type { ContractFact } from '../../facts.js';
import { child, children, textAt, type XmlElement } from './xml.js';

/** Build plugins whose WAR runs on an embedded container at `/`, not deployed under its name. */
const EMBEDDED_RUNNERS = new Set(['spring-boot-maven-plugin']);

/** `${name}` values known from the POM itself: its own properties and coordinates. */
function pomValues(project: XmlElement): Map<string, string> {
  const values = new Map<string, string>();
  for (const property of child(project, 'properties')?.children ?? [])
    values.set(property.name, property.text);
  const parent = child(project, 'parent');
  const coordinates: readonly [string, string | undefined][] = [
    ['artifactId', textAt(project, 'artifactId')],
    ['groupId', textAt(project, 'groupId') ?? textAt(parent, 'groupId')],
    ['version', textAt(project, 'version') ?? textAt(parent, 'version')],
  ];
  for (const [key, value] of coordinates) {
    if (value === undefined) continue;
    values.set(`project.${key}`, value);
    values.set(`pom.${key}`, value);
    values.set(key, value);
  }
  return values;
}

/** Substitutes `${…}` from `values` (nested up to a few levels); undefined when one stays unresolved. */
function substitute(text: string, values: ReadonlyMap<string, string>): string | undefined {
  let out = text;
  for (let round = 0; round < 5 && out.includes('${'); round++)
    out = out.replace(/\$\{([^}]+)\}/g, (whole, key: string) => values.get(key.trim()) ?? whole);
  return out.includes('${') ? undefined : out;
}

function runsEmbedded(project: XmlElement): boolean {
  const build = child(project, 'build');
  const plugins = [
    ...children(child(build, 'plugins'), 'plugin'),
    ...children(child(child(build, 'pluginManagement'), 'plugins'), 'plugin'),
  ];
  return plugins.some((plugin) => EMBEDDED_RUNNERS.has(textAt(plugin, 'artifactId') ?? ''));
}

/** The module folder of a `pom.xml` at a root-relative path. */
const folderOf = (path: string): string => path.slice(0, Math.max(path.lastIndexOf('/'), 0));

/** The WAR context path a POM declares, as a mount over its module's folder. */
export function pomMounts(document: XmlElement, path: string): ContractFact[] {
  const project = child(document, 'project');
  const packaging = child(project, 'packaging');
  if (project === undefined || packaging?.text !== 'war' || runsEmbedded(project)) return [];
  const values = pomValues(project);
  const finalName = child(child(project, 'build'), 'finalName');
  const written = finalName?.text ?? '${project.artifactId}-${project.version}';
  const name = substitute(written, values);
  if (name === undefined || name === '' || name.includes('/')) return [];
  // Tomcat and Jetty serve `ROOT.war` at `/`, which changes no route.
  if (name === 'ROOT') return [];
  return [
    {
      kind: 'http_mount',
      prefix: `/${name}`,
      target: `folder:${folderOf(path)}`,
      line: (finalName ?? packaging).line,
      via: finalName === undefined ? 'WAR artifactId-version' : 'WAR finalName',
    },
  ];
}
