/**
 * The indexed files of each folder, built once per snapshot: a package (a Go folder) or a file's neighbours
 * are looked up, not filtered out of every file on each question.
 */
import type { Derivation, IndexedFile, SnapshotReader } from '../../index/reader.js';

const dirOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')));
const keyOf = (root: string, dir: string): string => `${root}\u0000${dir}`;

const FOLDER_FILES: Derivation<ReadonlyMap<string, readonly IndexedFile[]>> = {
  build(snapshot) {
    const byFolder = new Map<string, IndexedFile[]>();
    for (const file of snapshot.files) {
      const key = keyOf(file.root, dirOf(file.path));
      const list = byFolder.get(key);
      if (list) list.push(file);
      else byFolder.set(key, [file]);
    }
    return byFolder;
  },
};

/** The files directly in one folder of a root (`''`: the root's top), in snapshot order. */
export const filesInFolder = (snapshot: SnapshotReader, root: string, dir: string): readonly IndexedFile[] =>
  snapshot.derived(FOLDER_FILES).get(keyOf(root, dir)) ?? [];

/** The files in the same folder as `file`, itself included. */
export const folderOf = (snapshot: SnapshotReader, file: IndexedFile): readonly IndexedFile[] =>
  filesInFolder(snapshot, file.root, dirOf(file.path));
