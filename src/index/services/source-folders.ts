/**
 * Which folders hold source code, by the language registry: a file whose language has a grammar (or is a
 * gRPC schema) is code; prose, YAML and config are not. Used to tell a service from a folder of manifests,
 * and to find folders that no unit (or no root) covers.
 */
import { languageOf, languageSpec } from '../languages/registry.js';
import { parentOf, within, type WorkspaceFiles } from './workspace-files.js';

export const isSourceFile = (name: string): boolean => {
  const spec = languageSpec(languageOf(name));
  return spec !== undefined && !spec.prose && (spec.grammar !== undefined || spec.grpcSchema === true);
};

/** A contract file: its language is a gRPC schema (`.proto`). */
export const isContractFile = (name: string): boolean => languageSpec(languageOf(name))?.grpcSchema === true;

export class SourceFolders {
  /** Folders holding at least one source file directly, sorted. */
  readonly folders: readonly string[];
  private readonly contractOnly = new Set<string>();

  constructor(workspace: WorkspaceFiles) {
    const folders: string[] = [];
    for (const [folder, files] of workspace.folders) {
      const code = files.filter(isSourceFile);
      if (code.length === 0) continue;
      folders.push(folder);
      if (code.every(isContractFile)) this.contractOnly.add(folder);
    }
    this.folders = folders.sort();
  }

  /** Whether any source file sits at or below `folder`. */
  holdsSource(folder: string): boolean {
    return this.folders.some((f) => within(f, folder));
  }

  /** Whether every source file at or below `folder` is a contract (.proto). */
  onlyContracts(folder: string): boolean {
    const inside = this.folders.filter((f) => within(f, folder));
    return inside.length > 0 && inside.every((f) => this.contractOnly.has(f));
  }

  /** Source folders that none of `covering` (folders) holds. */
  uncovered(covering: readonly string[]): string[] {
    return this.folders.filter((folder) => !covering.some((c) => within(folder, c)));
  }
}

/**
 * The folder to propose for an uncovered source folder: the highest ancestor below the workspace top that
 * holds none of `units` (so it never swallows a unit) and is not inside one.
 */
export function groupFolder(folder: string, units: readonly string[]): string {
  let current = folder;
  for (;;) {
    const parent = parentOf(current);
    if (parent === '.' || current === '.') return current;
    if (units.some((unit) => within(unit, parent))) return current;
    current = parent;
  }
}
