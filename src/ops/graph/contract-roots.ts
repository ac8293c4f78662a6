import type { SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';

type LanguageOf = MeshServices['languages'];

/** Whether a contracts folder may hold a file of this language: the schema itself, docs, configuration, or no grammar. */
const besideSchema = (spec: ReturnType<LanguageOf>): boolean =>
  spec === undefined ||
  spec.grpcSchema === true ||
  spec.documentation === true ||
  spec.configuration === true;

/**
 * The roots that hold contract declarations only, drawn as contracts rather than services: those the
 * service model calls `contracts` (a folder of .proto files outside every unit) and nothing else, and those
 * holding .proto files beside nothing but docs and configuration (a proto folder inside a unit, configured as
 * a root of its own, with its README and buf.yaml).
 * The contract graph has a `service` node for every root, so without this a proto folder that an RPC falls
 * back to (no implementation indexed) would be drawn as a service called over gRPC.
 */
export function contractRootsOf(snapshot: SnapshotReader, languageOf: LanguageOf): Set<string> {
  const kinds = new Map<string, Set<string>>();
  for (const entry of snapshot.serviceModel().entries) {
    if (entry.root === undefined) continue;
    (kinds.get(entry.root) ?? kinds.set(entry.root, new Set()).get(entry.root))?.add(entry.kind);
  }
  const languages = new Map<string, Set<Parameters<LanguageOf>[0]>>();
  for (const file of snapshot.files)
    (languages.get(file.root) ?? languages.set(file.root, new Set()).get(file.root))?.add(file.language);
  const roots = new Set<string>();
  for (const { name } of snapshot.roots) {
    const declared = kinds.get(name);
    const written = languages.get(name);
    if (declared?.size === 1 && declared.has('contracts')) roots.add(name);
    else if (
      [...(written ?? [])].some((l) => languageOf(l)?.grpcSchema === true) &&
      [...(written ?? [])].every((l) => besideSchema(languageOf(l)))
    )
      roots.add(name);
  }
  return roots;
}
