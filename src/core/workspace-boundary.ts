import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Where a configuration may send meshlens to read. `meshlens.toml` travels with a repository, so its content
 * is not the user's word: a clone could ship roots such as `/etc/ssl` or `../../other-project`, or a root or
 * skill file that is a symlink out of the checkout, and every answer would then quote those files. The
 * folders the user chose are trusted instead — the folder holding the config file, the workspace folder
 * (`--workspace`, else the current folder) and `$WORKSPACE_ROOT` when it is set — and every path setting that
 * reads files must resolve, symlinks followed, inside one of them.
 */

/** What to do with a setting that resolves outside the workspace. */
export type OutsidePolicy =
  /** Stop with a ConfigError that names each one and the fix (the default). */
  | 'refuse'
  /** Use them: the user said so with `--allow-outside-workspace`. */
  | 'allow'
  /** Drop them and carry on, so that `doctor` can report them and still check the rest. */
  | 'leave-out';

/** The flag that lets a configuration read outside the workspace; named in every refusal. */
export const ALLOW_OUTSIDE_FLAG = '--allow-outside-workspace';

export interface OutsidePath {
  /** Where the config says it, e.g. `[workspace] roots` or `[policy.skills] billing`. */
  readonly setting: string;
  /** The value as written in the file. */
  readonly value: string;
  /** Where it leads: absolute, symlinks resolved. */
  readonly resolved: string;
}

/** The path with every symlink resolved; for a path that does not exist, its deepest existing ancestor's. */
export function canonicalLocation(absolute: string): string {
  try {
    return realpathSync.native(absolute);
  } catch {
    const parent = path.dirname(absolute);
    return parent === absolute ? absolute : path.join(canonicalLocation(parent), path.basename(absolute));
  }
}

const isWithin = (child: string, folder: string): boolean =>
  child === folder || child.startsWith(folder.endsWith(path.sep) ? folder : `${folder}${path.sep}`);

export class WorkspaceBoundary {
  /** Canonical, sorted, without duplicates. */
  readonly folders: readonly string[];

  constructor(folders: readonly string[]) {
    this.folders = [...new Set(folders.map(canonicalLocation))].sort();
  }

  /** Whether a canonical path is one of the folders or below one. */
  contains(canonical: string): boolean {
    return this.folders.some((folder) => isWithin(canonical, folder));
  }

  /** How the refusal and `doctor` name the workspace. */
  describe(): string {
    return this.folders.length === 1
      ? `the workspace folder ${this.folders[0]}`
      : `the workspace folders (${this.folders.join(', ')})`;
  }

  /** The ConfigError text: each setting, where it leads, why it is refused and the two ways out. */
  refusal(file: string, outside: readonly OutsidePath[]): string {
    const lines = outside.map((o) => `  - ${o.setting} \`${o.value}\` leads to ${o.resolved}`);
    return [
      `${file} points outside ${this.describe()}:`,
      ...lines,
      'A meshlens.toml that comes with a repository could otherwise make meshlens read and serve any folder on ' +
        'this machine, so these are refused. Move them inside the workspace (or set WORKSPACE_ROOT to the ' +
        `folder that holds them), or, if you trust this file, pass ${ALLOW_OUTSIDE_FLAG} ` +
        `(for an MCP client: \`meshlens serve ${ALLOW_OUTSIDE_FLAG}\`).`,
    ].join('\n');
  }
}
