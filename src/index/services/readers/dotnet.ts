/**
 * .NET: a `*.csproj` / `*.fsproj` / `*.vbproj` is a project (named by its file); the Web or Worker SDK makes it
 * deployable. A `*.sln` / `*.slnx` solution is recorded: with one deployable project inside, the solution
 * folder is that service (its test projects belong to it).
 */
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { kindsFromDependencies } from '../kind-signatures.js';
import { firstMatch } from '../text-match.js';

const PROJECT = /\.(cs|fs|vb)proj$/;
const SOLUTION = /\.slnx?$/;

function readProject(file: ReadFile): Finding[] {
  const out: Finding[] = [
    {
      type: 'unit',
      folder: file.folder,
      role: 'manifest',
      from: learnt(file.path, 1, 'project file'),
      name: file.name.replace(PROJECT, ''),
    },
  ];
  const sdk = firstMatch(file.text, /Sdk\s*=\s*"(Microsoft\.NET\.Sdk\.(?:Web|Worker)[\w.]*)"/);
  if (sdk)
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'deployable',
      from: learnt(file.path, sdk.line, sdk.value),
    });
  out.push(...kindsFromDependencies(file.folder, file.path, file.text));
  return out;
}

export const dotnetReader: ManifestReader = {
  id: '.NET project',
  matches: (name) => PROJECT.test(name) || SOLUTION.test(name),
  read: (files) =>
    files.flatMap((file) =>
      SOLUTION.test(file.name)
        ? [{ type: 'solution' as const, folder: file.folder, from: learnt(file.path, 1, 'solution') }]
        : readProject(file),
    ),
};
