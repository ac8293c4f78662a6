/**
 * The workspace's own documents: the Markdown at the top of the workspace folder (README.md,
 * CONTRIBUTING.md) and under its `docs/` folder. A config whose roots are the service folders leaves them
 * out, yet they are what a newcomer reads first, so they are indexed as files of the workspace folder
 * (root `.`) unless a root covers them already. `[docs] workspace_docs = false` leaves them out.
 */
import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { classifyPath, crawl, type CrawlOptions, type CrawledFile } from './crawl.js';
import { languageOf, languageSpec } from './languages/registry.js';

/** The root name workspace documents are indexed under: the workspace folder's own label. */
export const WORKSPACE_DOCS_ROOT = '.';
/** The top-level folders holding the workspace's documents. */
const DOCS_FOLDERS = new Set(['docs', 'doc', 'documentation']);

const isDocument = (name: string): boolean => languageSpec(languageOf(name))?.documentation === true;

const isAtOrBelow = (child: string, parent: string): boolean =>
  child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

function lstatQuiet(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

function listQuiet(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * The workspace documents no root covers, as absolute paths: each top-level document file and each
 * documentation folder. Empty when a root is the workspace folder (or above it): that root has them all.
 */
export function workspaceDocLocations(
  workspaceDir: string,
  roots: readonly { readonly path: string }[],
): string[] {
  if (roots.some((root) => isAtOrBelow(workspaceDir, root.path))) return [];
  const covered = (location: string) => roots.some((root) => isAtOrBelow(location, root.path));
  return listQuiet(workspaceDir)
    .filter((entry) =>
      entry.isFile() ? isDocument(entry.name) : entry.isDirectory() && DOCS_FOLDERS.has(entry.name),
    )
    .map((entry) => path.join(workspaceDir, entry.name))
    .filter((location) => !covered(location))
    .sort();
}

/**
 * The workspace documents as crawled files of root `.`, paths relative to the workspace folder. The same
 * ignore files, excludes and secret patterns apply as in a root; a root inside a documentation folder keeps
 * its own files.
 */
export async function crawlWorkspaceDocs(
  workspaceDir: string,
  roots: readonly { readonly name: string; readonly path: string }[],
  options: CrawlOptions,
): Promise<CrawledFile[]> {
  const out: CrawledFile[] = [];
  for (const location of workspaceDocLocations(workspaceDir, roots)) {
    const relative = path.relative(workspaceDir, location).split(path.sep).join('/');
    const stats = lstatQuiet(location);
    if (stats?.isFile()) {
      // Judged as the workspace folder's own file: its ignore files and excludes apply.
      const workspace = [{ name: WORKSPACE_DOCS_ROOT, path: workspaceDir }];
      if (classifyPath(workspace, location, options))
        out.push({
          root: WORKSPACE_DOCS_ROOT,
          path: relative,
          absolutePath: location,
          size: stats.size,
          mtimeMs: stats.mtimeMs,
        });
      continue;
    }
    // A folder: walked like a root (ignore files above it apply too), leaving the roots inside it to them.
    const label = `${WORKSPACE_DOCS_ROOT}/${relative}`;
    const inside = roots.filter((root) => isAtOrBelow(root.path, location));
    let files: CrawledFile[];
    try {
      files = await crawl([{ name: label, path: location }, ...inside], options);
    } catch {
      // A folder that cannot be listed is no reason to stop indexing the roots.
      continue;
    }
    for (const file of files) {
      if (file.root !== label || !isDocument(file.path)) continue;
      out.push({ ...file, root: WORKSPACE_DOCS_ROOT, path: `${relative}/${file.path}` });
    }
  }
  return out;
}
