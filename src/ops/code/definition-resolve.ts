/**
 * Binds a name used at one place of a file to the declaration(s) it refers to, from proof to guess: the call
 * graph's edge for a call on that line; the declaration made on that line; then the scope the file gives
 * (its own declarations, the names it imports, its package), then the type a qualifier names; and only then
 * declarations of that name the file can see (`heuristic`, or `ambiguous` for several).
 */
import type { CallVia, Confidence, IndexedFile, SnapshotReader, SymbolFact } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { declarationsNamed } from './declaration-target.js';
import { isTypeDeclaration } from './declaration-view.js';
import type { IdentifierAt } from './identifier-at.js';
import { type ImportReach, importsOf } from './import-files.js';
import { folderOf } from './folder-files.js';
import { familyOf } from './language-family.js';
import { lastSegment } from '../shared/import-source.js';

export type DefinitionVia = CallVia | 'declaration';

export interface Definition {
  readonly file: IndexedFile;
  readonly symbol: SymbolFact;
  readonly confidence: Confidence;
  readonly via: DefinitionVia;
  /** Bound by the call graph's edge at that line. */
  readonly call: boolean;
}

export interface NameResolution {
  readonly definitions: readonly Definition[];
  /** The import the name comes from when it leads outside the workspace (a library). */
  readonly external?: string;
  /** Declarations of that name the file can see, when too many to offer as candidates. */
  readonly namesakes?: number;
}

/** More name-matched declarations than this and none is offered. */
const MAX_NAMESAKES = 8;

/** Receivers that are the enclosing type's own instance. */
const SELF = new Set(['this', 'self', '$this', 'static', 'Self', 'super', 'base']);

/** A declaration inside a type (its qualified name says so), as opposed to a top-level one. */
const isMember = (symbol: SymbolFact): boolean => symbol.qualifiedName !== symbol.name;

interface Candidate {
  readonly file: IndexedFile;
  readonly symbol: SymbolFact;
}

export class DefinitionResolver {
  private imported: ImportReach[] | undefined;
  private folder: IndexedFile[] | undefined;
  private near: IndexedFile[] | undefined;

  constructor(
    private readonly snapshot: SnapshotReader,
    private readonly languages: MeshServices['languages'],
    private readonly file: IndexedFile,
    private readonly line: number,
  ) {}

  resolve(id: IdentifierAt): NameResolution {
    const fromCalls = this.fromCallGraph(id.name);
    if (fromCalls.length > 0) return { definitions: fromCalls };
    const declared = this.file.facts.symbols.filter((s) => s.startLine === this.line && s.name === id.name);
    if (declared.length > 0)
      return {
        definitions: this.bound(
          declared.map((symbol) => ({ file: this.file, symbol })),
          'declaration',
        ),
      };
    return id.qualifier === undefined ? this.unqualified(id.name) : this.qualified(id.qualifier, id.name);
  }

  /** The declarations the call graph binds calls named `name` on this line to. */
  fromCallGraph(name: string | undefined): Definition[] {
    const out: Definition[] = [];
    for (const edge of this.snapshot.callGraph().callsAt(this.file, this.line)) {
      if (name !== undefined && edge.name !== name) continue;
      const symbol = edge.to.facts.symbols[edge.callee];
      if (!symbol || out.some((d) => d.file === edge.to && d.symbol === symbol)) continue;
      out.push({ file: edge.to, symbol, confidence: edge.confidence, via: edge.via, call: true });
    }
    return out;
  }

  private unqualified(name: string): NameResolution {
    const own = this.file.facts.symbols.filter((s) => s.name === name);
    const ownTop = own.filter((s) => !isMember(s));
    const ownScope =
      ownTop.length > 0 ? ownTop : own.filter((s) => this.enclosingTypes().includes(ownerOf(s)));
    if (ownScope.length > 0)
      return {
        definitions: this.bound(
          ownScope.map((symbol) => ({ file: this.file, symbol })),
          'file',
        ),
      };
    const imports = this.imports().filter((i) => i.names.includes(name));
    const viaImport = this.topLevelIn(
      imports.flatMap((i) => i.files),
      name,
    );
    if (viaImport.length > 0) return { definitions: this.bound(viaImport, 'import') };
    const external = imports.find((i) => i.files.length === 0)?.source;
    if (external !== undefined) return { definitions: [], external };
    const inPackage = this.topLevelIn(this.sameFolder(), name);
    if (inPackage.length > 0) return { definitions: this.bound(inPackage, 'package') };
    return this.byName(name, false);
  }

  private qualified(qualifier: string, name: string): NameResolution {
    if (SELF.has(qualifier)) {
      const owners = this.enclosingTypes();
      const own = this.membersOf(owners, name);
      if (own.length > 0) return { definitions: this.bound(own, 'self') };
    }
    const imports = this.imports().filter(
      (i) =>
        i.names.includes(qualifier) ||
        ((i.names.length === 0 || i.names.includes('*')) && lastSegment(i.source) === qualifier),
    );
    const files = imports.flatMap((i) => i.files);
    const viaImport = [...this.topLevelIn(files, name), ...this.membersOf([qualifier], name, files)];
    if (viaImport.length > 0) return { definitions: this.bound(viaImport, 'import') };
    const external = imports.find((i) => i.files.length === 0)?.source;
    if (external !== undefined) return { definitions: [], external };
    const onType = this.membersOf([qualifier], name, this.nearFiles());
    if (onType.length > 0) return { definitions: this.bound(onType, 'type') };
    return this.byName(name, true);
  }

  /** Candidates bound by scope: `exact` when one, `ambiguous` when several. */
  private bound(found: readonly Candidate[], via: DefinitionVia): Definition[] {
    const confidence: Confidence = found.length === 1 ? 'exact' : 'ambiguous';
    return found.map((c) => ({ ...c, confidence, via, call: false }));
  }

  /**
   * Declarations named `name` the file can see by name only: in what it imports and its folder, else in its
   * root (nothing further: a name matched across services proves nothing). One is `heuristic`, a few are
   * `ambiguous`; more than that and the name is too common to guess (`namesakes` says how many).
   */
  private byName(name: string, member: boolean): NameResolution {
    const family = familyOf(this.languages, this.file);
    const all = declarationsNamed(this.snapshot, name).filter(
      (d) => isMember(d.symbol) === member && familyOf(this.languages, d.file) === family,
    );
    const near = new Set(this.nearFiles());
    const tiers = [(f: IndexedFile) => near.has(f), (f: IndexedFile) => f.root === this.file.root];
    for (const inTier of tiers) {
      const found = all.filter((d) => inTier(d.file));
      if (found.length > MAX_NAMESAKES) return { definitions: [], namesakes: found.length };
      if (found.length > 0) {
        const confidence: Confidence = found.length === 1 ? 'heuristic' : 'ambiguous';
        return { definitions: found.map((d) => ({ ...d, confidence, via: 'name', call: false })) };
      }
    }
    return { definitions: [] };
  }

  private imports(): ImportReach[] {
    this.imported ??= importsOf(this.snapshot, this.languages, this.file);
    return this.imported;
  }

  /** Files of the same family in the file's folder (its package), the file included. */
  private sameFolder(): IndexedFile[] {
    if (this.folder) return this.folder;
    const family = familyOf(this.languages, this.file);
    this.folder = folderOf(this.snapshot, this.file).filter((f) => familyOf(this.languages, f) === family);
    return this.folder;
  }

  /** The file, its folder and everything its imports reach. */
  private nearFiles(): IndexedFile[] {
    this.near ??= [...new Set([...this.sameFolder(), ...this.imports().flatMap((i) => i.files)])];
    return this.near;
  }

  private topLevelIn(files: readonly IndexedFile[], name: string): Candidate[] {
    return [...new Set(files)].flatMap((file) =>
      file.facts.symbols.filter((s) => s.name === name && !isMember(s)).map((symbol) => ({ file, symbol })),
    );
  }

  /** Members `name` of the types named `owners`, in `files` (default: the file's folder and imports). */
  private membersOf(
    owners: readonly string[],
    name: string,
    files: readonly IndexedFile[] = this.nearFiles(),
  ): Candidate[] {
    if (owners.length === 0) return [];
    return [...new Set(files)].flatMap((file) =>
      file.facts.symbols
        .filter((s) => s.name === name && owners.includes(ownerOf(s)))
        .map((symbol) => ({ file, symbol })),
    );
  }

  /** Names of the types enclosing this line: a class around it, or a Go method's receiver type. */
  private enclosingTypes(): string[] {
    const spanning = this.file.facts.symbols.filter(
      (s) => s.startLine <= this.line && this.line <= s.endLine,
    );
    const types = spanning.filter(isTypeDeclaration).map((s) => s.name);
    const methodOwners = spanning.filter((s) => s.kind === 'method' && isMember(s)).map(ownerOf);
    return [...new Set([...types, ...methodOwners])];
  }
}

/** The owning type's simple name from a member's qualified name (`memStore.Get` → `memStore`). */
function ownerOf(symbol: SymbolFact): string {
  const parts = symbol.qualifiedName.split(/::|[.#]/);
  return parts.length >= 2 ? (parts[parts.length - 2] as string) : '';
}
