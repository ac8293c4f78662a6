// Which expected service a workspace path belongs to. The expected list names each service's folders; a file
// belongs to the service whose folder is its longest prefix. Lists without `services` (the first format)
// fall back to the `src/<dir>/` convention their repositories used.

/** Service identity: lowercase alphanumerics (fraud-detection -> frauddetection). */
export const norm = (s) =>
  String(s)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const clean = (p) =>
  String(p ?? '')
    .replace(/\\/g, '/')
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '');

/** The `src/<dir>/` segment of a workspace-relative path, as written (null outside any service folder). */
export function serviceDirOf(file) {
  if (!file) return null;
  const m = /(?:^|\/)src\/([^/]+)\//.exec(clean(file));
  return m ? m[1] : null;
}

export class ServiceMap {
  /** @param expected the parsed expected list */
  constructor(expected) {
    this.declared = Array.isArray(expected.services);
    /** folder -> { name, kind } (services and libraries; libraries map to no service) */
    this.folders = [];
    /** norm(alias or name) -> canonical name */
    this.names = new Map();
    this.services = [];
    for (const s of expected.services ?? []) {
      this.services.push(s);
      for (const folder of s.folders ?? []) this.folders.push({ folder: clean(folder), name: s.name });
      for (const alias of [s.name, ...(s.aliases ?? [])]) this.names.set(norm(alias), s.name);
    }
    for (const lib of expected.libraries ?? [])
      for (const folder of lib.folders ?? []) this.folders.push({ folder: clean(folder), name: null });
    this.folders.sort((a, b) => b.folder.length - a.folder.length);
  }

  /** The canonical service name a workspace-relative file or folder belongs to, or null. */
  ofPath(file) {
    if (!file) return null;
    const p = clean(file);
    if (!this.declared) return serviceDirOf(`${p}/`) ?? serviceDirOf(p);
    for (const { folder, name } of this.folders) {
      if (folder === '' || folder === '.' || p === folder || p.startsWith(`${folder}/`)) return name;
    }
    return null;
  }

  /** The canonical service a name (alias, folder name) stands for, or null. */
  ofName(name) {
    if (!this.declared) return name;
    return this.names.get(norm(name)) ?? null;
  }

  /** The expected service whose folders include exactly this folder, or null. */
  atFolder(folder) {
    const p = clean(folder) || '.';
    for (const s of this.services) if ((s.folders ?? []).some((f) => (clean(f) || '.') === p)) return s.name;
    return null;
  }
}
