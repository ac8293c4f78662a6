/**
 * `Cargo.toml`: a crate (`[package] name`); `src/main.rs`, `src/bin/*.rs` or a `[[bin]]` target is an entry point;
 * `[workspace] members` make it an aggregator and each member crate a unit.
 */
import { parse } from 'smol-toml';
import { expandFolders } from '../folder-glob.js';
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { firstMatch, lineOf } from '../text-match.js';
import { joinRel, type WorkspaceFiles } from '../workspace-files.js';

interface CargoToml {
  readonly package?: { readonly name?: unknown };
  readonly workspace?: { readonly members?: unknown };
  readonly bin?: unknown;
}

function readOne(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  let toml: CargoToml;
  try {
    toml = parse(file.text) as CargoToml;
  } catch {
    return [];
  }
  const out: Finding[] = [];
  const members = Array.isArray(toml.workspace?.members) ? toml.workspace.members : [];
  if (members.length > 0) {
    const at = learnt(file.path, lineOf(file.text, 'members'), 'Cargo workspace members');
    out.push({ type: 'aggregator', folder: file.folder, from: at });
    for (const glob of members.filter((m): m is string => typeof m === 'string'))
      for (const folder of expandFolders(workspace, file.folder, glob))
        if (workspace.filesOf(folder).includes('Cargo.toml'))
          out.push({ type: 'unit', folder, role: 'member', from: at });
  }
  if (toml.package) {
    const name = typeof toml.package.name === 'string' ? toml.package.name : undefined;
    const line = firstMatch(file.text, /^\s*(name)\s*=/m)?.line ?? 1;
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'manifest',
      from: learnt(file.path, line, 'Cargo.toml package'),
      ...(name ? { name } : {}),
    });
    const main = joinRel(joinRel(file.folder, 'src'), 'main.rs');
    if (workspace.filesOf(joinRel(file.folder, 'src')).includes('main.rs'))
      out.push({
        type: 'unit',
        folder: file.folder,
        role: 'deployable',
        from: learnt(main, 1, 'binary crate'),
      });
    else if (workspace.filesOf(joinRel(joinRel(file.folder, 'src'), 'bin')).some((f) => f.endsWith('.rs')))
      // Cargo builds every `src/bin/*.rs` as a binary of its own without any `[[bin]]` entry.
      out.push({
        type: 'unit',
        folder: file.folder,
        role: 'deployable',
        from: learnt(joinRel(file.folder, 'src/bin'), 0, 'binary targets'),
      });
    else if (toml.bin)
      out.push({
        type: 'unit',
        folder: file.folder,
        role: 'deployable',
        from: learnt(file.path, lineOf(file.text, '[[bin]]'), 'binary target'),
      });
  }
  return out;
}

export const cargoReader: ManifestReader = {
  id: 'Cargo.toml',
  matches: (name) => name === 'Cargo.toml',
  read: (files, workspace) => files.flatMap((file) => readOne(file, workspace)),
};
