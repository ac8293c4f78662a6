/**
 * `CMakeLists.txt`: a folder whose CMake file declares an executable (`add_executable(ComposePostService …)`)
 * builds a program, named by its target; one that only declares libraries is a library. A deploy manifest
 * that runs the program (`entrypoint: ComposePostService`, or a service named `compose-post-service`) then
 * finds its folder, as it finds a Go `cmd/<name>` binary.
 */
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { allMatches } from '../text-match.js';

/** Target names, skipping CMake variables (`${PROJECT_NAME}`) and generator expressions. */
const EXECUTABLE = /^\s*add_executable\s*\(\s*([A-Za-z_][\w.-]*)/gim;
const LIBRARY = /^\s*add_library\s*\(\s*([A-Za-z_][\w.-]*)/gim;

function readOne(file: ReadFile): Finding[] {
  const text = file.text.replace(/#[^\n]*/g, '');
  const executables = allMatches(text, EXECUTABLE);
  const libraries = allMatches(text, LIBRARY);
  // A top-level file that only adds sub-directories is a build of units, not one itself.
  if (executables.length === 0 && libraries.length === 0) return [];
  const out: Finding[] = [];
  for (const target of executables)
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'deployable',
      from: learnt(file.path, target.line, 'CMake executable'),
      name: target.value,
    });
  if (executables.length === 0)
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'manifest',
      from: learnt(file.path, libraries[0]?.line ?? 1, 'CMake library'),
    });
  return out;
}

export const cmakeReader: ManifestReader = {
  id: 'CMakeLists.txt',
  matches: (name) => name === 'CMakeLists.txt',
  read: (files) => files.flatMap(readOne),
};
