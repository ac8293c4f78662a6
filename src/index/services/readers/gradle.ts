/**
 * Gradle: `build.gradle(.kts)` makes a project (named by `rootProject.name` in the settings file beside it,
 * else its folder); `settings.gradle(.kts)` `include`s make each included project folder a unit
 * (`:a:b` → `a/b`); the Spring Boot or `application` plugin makes it deployable.
 */
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { kindsFromDependencies } from '../kind-signatures.js';
import { allMatches, firstMatch } from '../text-match.js';
import { joinRel, normalizeRel, type WorkspaceFiles } from '../workspace-files.js';

const SETTINGS = new Set(['settings.gradle', 'settings.gradle.kts']);
const BUILD = new Set(['build.gradle', 'build.gradle.kts']);

/** Strips `//` and block comments, keeping line breaks. */
const withoutComments = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/[^\n]*/g, (comment) => comment.replace(/[^\n]/g, ' '));

function readSettings(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  const text = withoutComments(file.text);
  const out: Finding[] = [];
  const includes = allMatches(text, /\binclude\s*\(?([^\n)]*)/g);
  for (const include of includes) {
    for (const quoted of include.value.matchAll(/["']([^"']+)["']/g)) {
      const project = (quoted[1] ?? '').replace(/^:/, '').replace(/:/g, '/');
      const folder = normalizeRel(joinRel(file.folder, project));
      if (folder && workspace.has(folder))
        out.push({
          type: 'unit',
          folder,
          role: 'member',
          from: learnt(file.path, include.line, 'Gradle include'),
        });
    }
  }
  if (out.length > 0)
    out.unshift({
      type: 'aggregator',
      folder: file.folder,
      from: learnt(file.path, includes[0]?.line ?? 1, 'Gradle includes'),
    });
  return out;
}

function readBuild(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  const text = withoutComments(file.text);
  let name: { value: string; line: number; file: string } | undefined;
  for (const settings of SETTINGS) {
    const path = joinRel(file.folder, settings);
    const found = firstMatch(workspace.read(path) ?? '', /rootProject\.name\s*=\s*["']([^"']+)["']/);
    if (found) name = { ...found, file: path };
  }
  const out: Finding[] = [
    {
      type: 'unit',
      folder: file.folder,
      role: 'manifest',
      from: name ? learnt(name.file, name.line, 'rootProject.name') : learnt(file.path, 1, 'Gradle build'),
      ...(name ? { name: name.value } : {}),
    },
  ];
  const plugin = firstMatch(
    text,
    /(org\.springframework\.boot|["']application["']|^\s*application\s*$|mainClass)/m,
  );
  if (plugin)
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'deployable',
      from: learnt(
        file.path,
        plugin.line,
        /spring/.test(plugin.value) ? 'Spring Boot plugin' : 'application plugin',
      ),
    });
  out.push(...kindsFromDependencies(file.folder, file.path, text));
  return out;
}

export const gradleReader: ManifestReader = {
  id: 'gradle',
  matches: (name) => SETTINGS.has(name) || BUILD.has(name),
  read: (files, workspace) =>
    files.flatMap((file) =>
      SETTINGS.has(file.name) ? readSettings(file, workspace) : readBuild(file, workspace),
    ),
};
