/**
 * Python packaging: `pyproject.toml` (`[project]` or `[tool.poetry]` name), `setup.py` (`name=`) and
 * `requirements.txt` each make their folder a unit; Django's `manage.py` or a package `__main__.py` beside
 * them is an entry point. Their dependencies tell a load generator (Locust).
 */
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { kindsFromDependencies } from '../kind-signatures.js';
import { firstMatch } from '../text-match.js';
import { joinRel, type WorkspaceFiles } from '../workspace-files.js';

const FILES = new Set(['pyproject.toml', 'setup.py', 'requirements.txt']);
/** Files a Python project is run by, by convention (`python app.py`, `manage.py runserver`). */
const ENTRY_POINTS = ['manage.py', '__main__.py', 'app.py', 'main.py', 'server.py', 'wsgi.py', 'asgi.py'];

function nameOf(file: ReadFile): { value: string; line: number } | undefined {
  if (file.name === 'pyproject.toml')
    return firstMatch(file.text, /\[(?:project|tool\.poetry)\][^[]*?^name\s*=\s*["']([^"']+)["']/ms);
  if (file.name === 'setup.py') return firstMatch(file.text, /\bname\s*=\s*["']([^"']+)["']/);
  return undefined;
}

function readOne(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  const name = nameOf(file);
  const out: Finding[] = [
    {
      type: 'unit',
      folder: file.folder,
      role: 'manifest',
      from: learnt(file.path, name?.line ?? 1, file.name),
      ...(name ? { name: name.value } : {}),
    },
  ];
  for (const entry of ENTRY_POINTS)
    if (workspace.filesOf(file.folder).includes(entry))
      out.push({
        type: 'unit',
        folder: file.folder,
        role: 'deployable',
        from: learnt(joinRel(file.folder, entry), 1, 'entry point'),
      });
  out.push(...kindsFromDependencies(file.folder, file.path, file.text));
  return out;
}

export const pythonPackagingReader: ManifestReader = {
  id: 'python packaging',
  matches: (name) => FILES.has(name),
  read: (files, workspace) => files.flatMap((file) => readOne(file, workspace)),
};
