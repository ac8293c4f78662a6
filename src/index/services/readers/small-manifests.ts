/**
 * Build manifests that say little beyond "this folder is a project": Ruby's `Gemfile` (a `config.ru` beside it
 * is a Rack entry point), PHP's `composer.json` (`name`), Elixir's `mix.exs` (`app:`; an application `mod:`
 * makes it runnable).
 */
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { kindsFromDependencies } from '../kind-signatures.js';
import { firstMatch, lineOf } from '../text-match.js';
import { joinRel, type WorkspaceFiles } from '../workspace-files.js';

function gemfile(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  const out: Finding[] = [
    { type: 'unit', folder: file.folder, role: 'manifest', from: learnt(file.path, 1, 'Gemfile') },
  ];
  if (workspace.filesOf(file.folder).includes('config.ru'))
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'deployable',
      from: learnt(joinRel(file.folder, 'config.ru'), 1, 'Rack entry point'),
    });
  return out;
}

function composer(file: ReadFile): Finding[] {
  let name: string | undefined;
  try {
    const value = (JSON.parse(file.text) as { name?: unknown }).name;
    if (typeof value === 'string' && value) name = value.replace(/^[^/]+\//, '');
  } catch {
    return [];
  }
  return [
    {
      type: 'unit',
      folder: file.folder,
      role: 'manifest',
      from: learnt(file.path, name ? lineOf(file.text, '"name"') : 1, 'composer.json'),
      ...(name ? { name } : {}),
    },
    ...kindsFromDependencies(file.folder, file.path, file.text),
  ];
}

function mix(file: ReadFile): Finding[] {
  const app = firstMatch(file.text, /\bapp:\s*:(\w+)/);
  const out: Finding[] = [
    {
      type: 'unit',
      folder: file.folder,
      role: 'manifest',
      from: learnt(file.path, app?.line ?? 1, 'mix.exs app'),
      ...(app ? { name: app.value } : {}),
    },
  ];
  const mod = firstMatch(file.text, /\b(mod):\s*\{/);
  if (mod)
    out.push({
      type: 'unit',
      folder: file.folder,
      role: 'deployable',
      from: learnt(file.path, mod.line, 'OTP application'),
    });
  return out;
}

export const smallManifestReader: ManifestReader = {
  id: 'Gemfile / composer.json / mix.exs',
  matches: (name) => name === 'Gemfile' || name === 'composer.json' || name === 'mix.exs',
  read: (files, workspace) =>
    files.flatMap((file) =>
      file.name === 'Gemfile'
        ? gemfile(file, workspace)
        : file.name === 'composer.json'
          ? composer(file)
          : mix(file),
    ),
};
