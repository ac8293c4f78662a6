/**
 * `pom.xml`: a Maven project (its own `artifactId`, not its parent's). `<modules>` make it an aggregator
 * and each module folder a unit of its own; the Spring Boot plugin or `war` packaging make it deployable.
 */
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { kindsFromDependencies } from '../kind-signatures.js';
import { allMatches, firstMatch, withoutXmlComments } from '../text-match.js';
import { normalizeRel, type WorkspaceFiles } from '../workspace-files.js';

/** Blanks a block (keeping newlines) so that what it holds is not read as the project's own. */
const blank = (text: string, pattern: RegExp): string =>
  text.replace(pattern, (block) => block.replace(/[^\n]/g, ' '));

function readOne(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  const text = withoutXmlComments(file.text);
  const own = blank(
    blank(blank(text, /<parent>[\s\S]*?<\/parent>/), /<dependencies>[\s\S]*?<\/dependencies>/g),
    /<build>[\s\S]*?<\/build>|<profiles>[\s\S]*?<\/profiles>|<dependencyManagement>[\s\S]*?<\/dependencyManagement>/g,
  );
  const artifact = firstMatch(own, /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/);
  const out: Finding[] = [];
  const modules = allMatches(text, /<module>\s*([^<]+?)\s*<\/module>/g);
  const memberFolders = modules
    .map((m) => ({ ...m, folder: normalizeRel(file.folder === '.' ? m.value : `${file.folder}/${m.value}`) }))
    .filter((m): m is typeof m & { folder: string } => m.folder !== undefined && workspace.has(m.folder));
  if (modules.length > 0) {
    out.push({
      type: 'aggregator',
      folder: file.folder,
      from: learnt(file.path, modules[0]?.line ?? 1, 'pom.xml modules'),
    });
    for (const m of memberFolders)
      out.push({
        type: 'unit',
        folder: m.folder,
        role: 'member',
        from: learnt(file.path, m.line, 'pom.xml module'),
      });
  }
  const packaging = firstMatch(own, /<packaging>\s*(\w+)\s*<\/packaging>/)?.value;
  if (packaging !== 'pom' || modules.length === 0)
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'manifest',
      from: learnt(file.path, artifact?.line ?? 1, 'pom.xml artifactId'),
      ...(artifact ? { name: artifact.value } : {}),
    });
  const boot = firstMatch(text, /(spring-boot-maven-plugin|<packaging>\s*war\s*<\/packaging>)/);
  if (boot && modules.length === 0)
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'deployable',
      from: learnt(file.path, boot.line, boot.value.includes('war') ? 'war packaging' : 'Spring Boot plugin'),
    });
  out.push(...kindsFromDependencies(file.folder, file.path, text));
  return out;
}

export const mavenReader: ManifestReader = {
  id: 'pom.xml',
  matches: (name) => name === 'pom.xml',
  read: (files, workspace) => files.flatMap((file) => readOne(file, workspace)),
};
