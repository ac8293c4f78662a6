/**
 * Binds one call site to the declaration(s) it calls. The rules go from proof to guess: an import the file
 * names, the caller's own type, the receiver's declared type, the same file, the same package; only then a
 * name the caller can see (`heuristic`), or a few of them (`ambiguous`). A callee proven to live outside the
 * workspace (a library import or a library type) is never name-matched to a workspace declaration.
 */
import type { CallFact, Confidence } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import { type DeclarationTable, type DeclId, simpleName, TYPE_KINDS } from './declarations.js';
import type { CallVia } from './model.js';
import { familyOf, type Reach } from './reach.js';

export interface Binding {
  readonly targets: readonly DeclId[];
  readonly confidence: Confidence;
  readonly via: CallVia;
}

/** The outcome for a site that binds to nothing. */
export type Unbound = 'external' | 'unresolved';

/** More name-matched candidates than this and the site stays unresolved: a common name proves nothing. */
const MAX_AMBIGUOUS = 4;
/** How far up the supertypes a method is looked for. */
const MAX_SUPER_DEPTH = 6;

/** Receivers that are the caller's own instance in some language, when the extractor did not say `self`. */
const SELF_RECEIVERS = new Set(['this', 'self', '$this', 'static', 'Self', '@']);

/** A receiver that is one plain name (`Money`, `client`), not an expression. */
const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

export class CallResolver {
  constructor(
    private readonly decls: DeclarationTable,
    private readonly reach: Reach,
  ) {}

  resolve(file: IndexedFile, call: CallFact): Binding | Unbound {
    const found = this.bind(file, call);
    // A declaration that only some builds compile (`#ifdef`) is a guess about the build, not a proof.
    if (typeof found === 'object' && found.confidence === 'exact')
      if (found.targets.some((id) => this.decls.symbolOf(id).conditional))
        return { ...found, confidence: 'heuristic' };
    return found;
  }

  private bind(file: IndexedFile, call: CallFact): Binding | Unbound {
    if (call.module !== undefined) return this.viaModule(file, call);
    if (call.construct) return this.constructed(file, call);
    if (call.self || (call.receiver !== undefined && SELF_RECEIVERS.has(call.receiver))) {
      const own = this.onOwnType(file, call);
      if (own) return own;
      if (call.receiver !== undefined && !SELF_RECEIVERS.has(call.receiver)) return 'unresolved';
      if (call.receiver !== undefined) return this.byName(file, call, true);
    }
    if (call.receiver !== undefined && IDENTIFIER.test(call.receiver)) {
      const onObject = this.onNamedObject(file, call.receiver, call.name);
      if (onObject) return onObject;
    }
    if (call.receiverType !== undefined) return this.onType(file, call.receiverType, call.name);
    if (call.receiver === undefined) return this.bare(file, call);
    // `Type.method()` on a type the caller can see (a static call, a class method).
    if (IDENTIFIER.test(call.receiver)) {
      const types = this.visibleTypes(file, call.receiver);
      if (types.length > 0) return this.membersOf(types, call.name, 'type', 'exact') ?? 'unresolved';
    }
    return this.byName(file, call, true);
  }

  /**
   * `Money.encode()` where `Money` is an object declared with its functions (`const Money = { encode() {…} }`):
   * the function of that object, in the caller's file or in the file an import of that name leads to. It
   * comes before the receiver's declared type, which names only the interface the object satisfies.
   */
  private onNamedObject(file: IndexedFile, receiver: string, name: string): Binding | undefined {
    const members = this.decls.membersOf(receiver, name).filter((id) => this.decls.ownedByValue(id));
    if (members.length === 0) return undefined;
    const local = members.filter((id) => this.decls.fileOf(id) === file);
    if (local.length > 0) return { targets: local, confidence: 'exact', via: 'file' };
    const imported = file.facts.imports
      .filter((fact) => fact.names?.includes(receiver))
      .map((fact) => this.reach.module(file, fact.source));
    const found = members.filter((id) => imported.some((module) => module.holds(this.decls.fileOf(id))));
    return found.length > 0 ? { targets: found, confidence: 'exact', via: 'import' } : undefined;
  }

  /** `pkg.F()`, `ns.f()`, `import { f }`: the callee is a top-level declaration of what the import resolves to. */
  private viaModule(file: IndexedFile, call: CallFact): Binding | Unbound {
    const module = this.reach.module(file, call.module as string);
    if (module.files.length > 0) {
      const found = this.topLevelIn(call.name, module.files, (other) => module.holds(other));
      if (found.length > 0)
        return { targets: found, confidence: found.length === 1 ? 'exact' : 'ambiguous', via: 'import' };
      // An import of a class then `Class.method()`: the method of that type.
      const types = this.decls
        .typesNamed(simpleName(call.module as string))
        .filter((id) => module.holds(this.decls.fileOf(id)));
      const member = this.membersOf(types, call.name, 'import', 'exact');
      if (member) return member;
      return 'unresolved';
    }
    if (module.knownExternal) return module.inWorkspace ? 'unresolved' : 'external';
    // The language resolves no imports: a module named like a type or a package of the workspace.
    const typeName = simpleName(call.module as string);
    const types = this.visibleTypes(file, typeName);
    if (types.length > 0) return this.membersOf(types, call.name, 'import', 'heuristic') ?? 'unresolved';
    const inPackage = this.decls
      .named(call.name)
      .filter((id) => this.decls.fileOf(id).facts.package === call.module && !this.isMember(id));
    if (inPackage.length > 0 && inPackage.length <= MAX_AMBIGUOUS)
      return {
        targets: inPackage,
        confidence: inPackage.length === 1 ? 'heuristic' : 'ambiguous',
        via: 'import',
      };
    return 'unresolved';
  }

  private constructed(file: IndexedFile, call: CallFact): Binding | Unbound {
    const types = this.visibleTypes(file, simpleName(call.name));
    if (types.length === 0) return 'external';
    return { targets: types, confidence: types.length === 1 ? 'exact' : 'ambiguous', via: 'constructor' };
  }

  /** A method of the caller's own type, or of a supertype of it. */
  private onOwnType(file: IndexedFile, call: CallFact): Binding | undefined {
    if (call.caller === undefined) return undefined;
    const own = this.decls.enclosingType(file, call.caller);
    const ownName =
      own === undefined ? this.decls.ownerOfSymbol(file, call.caller) : this.decls.symbolOf(own).name;
    if (ownName === undefined) return undefined;
    const types = own !== undefined ? [own] : this.visibleTypes(file, ownName);
    if (types.length === 0) {
      // Methods attached to a type declared elsewhere (a Go receiver type in another file of the package).
      const siblings = this.decls.membersOf(ownName, call.name).filter((id) => this.sameFamily(file, id));
      const near = siblings.filter((id) => this.reach.sees(file, this.decls.fileOf(id)));
      return near.length === 1 ? { targets: near, confidence: 'exact', via: 'self' } : undefined;
    }
    return this.membersOf(types, call.name, 'self', 'exact');
  }

  /** A method of the receiver's declared type; a type outside the workspace makes the call external. */
  private onType(file: IndexedFile, typeName: string, name: string): Binding | Unbound {
    const types = this.visibleTypes(file, simpleName(typeName));
    if (types.length === 0) return 'external';
    const confidence: Confidence = types.length === 1 ? 'exact' : 'ambiguous';
    return this.membersOf(types, name, 'type', confidence) ?? 'unresolved';
  }

  /** A bare call: the same file, an import by name, the same package, then the one visible declaration. */
  private bare(file: IndexedFile, call: CallFact): Binding | Unbound {
    const own = this.topLevelIn(call.name, [file], (other) => other === file);
    if (own.length > 0) return this.inOwnFile(file, own);
    const folder = this.topLevelIn(call.name, this.reach.folderOf(file), (other) =>
      this.reach.inSameFolder(file, other),
    );
    if (folder.length === 1) return { targets: folder, confidence: 'exact', via: 'package' };
    return this.byName(file, call, false);
  }

  /**
   * Declarations of the caller's own file named like the call. A prototype (`int f(void);`, a TypeScript
   * overload signature) stands for a body: the one in the file, else the one its folder or includes hold.
   * Several bodies under one name are overloads the arguments choose between, which is not proven here.
   */
  private inOwnFile(file: IndexedFile, own: readonly DeclId[]): Binding {
    const bodies = own.filter((id) => this.decls.symbolOf(id).bodyStartLine !== undefined);
    if (bodies.length > 1) return { targets: bodies, confidence: 'ambiguous', via: 'file' };
    if (bodies.length === 1) return { targets: bodies, confidence: 'exact', via: 'file' };
    const name = this.decls.symbolOf(own[0] as DeclId).name;
    const elsewhere = this.topLevelSeen(
      name,
      (other) => other !== file && this.reach.sees(file, other),
    ).filter((id) => this.decls.symbolOf(id).bodyStartLine !== undefined);
    if (elsewhere.length === 1) return { targets: elsewhere, confidence: 'exact', via: 'package' };
    return { targets: own, confidence: own.length === 1 ? 'exact' : 'ambiguous', via: 'file' };
  }

  /**
   * The declarations named like the call that the caller can see (its file, folder and imports): one is a
   * `heuristic` binding, a few are `ambiguous`; none or many leave the site unresolved.
   */
  private byName(file: IndexedFile, call: CallFact, member: boolean): Binding | Unbound {
    const candidates: DeclId[] = [];
    for (const id of this.decls.named(call.name)) {
      if (this.isMember(id) !== member || !this.reach.sees(file, this.decls.fileOf(id))) continue;
      candidates.push(id);
      // More would stay unresolved all the same: stop looking.
      if (candidates.length > MAX_AMBIGUOUS) return 'unresolved';
    }
    if (candidates.length === 0) return 'unresolved';
    return {
      targets: candidates,
      confidence: candidates.length === 1 ? 'heuristic' : 'ambiguous',
      via: 'name',
    };
  }

  /**
   * Type declarations named `name` nearest to `file`: in the file, then in what it can reach (folder and
   * imports), then in its root, then anywhere in its language family.
   */
  visibleTypes(file: IndexedFile, name: string): DeclId[] {
    const all = this.decls.typesNamed(name).filter((id) => this.sameFamily(file, id));
    if (all.length <= 1) return all;
    const tiers: ((other: IndexedFile) => boolean)[] = [
      (other) => other === file,
      (other) => this.reach.sees(file, other),
      (other) => other.root === file.root,
    ];
    for (const inTier of tiers) {
      const found = all.filter((id) => inTier(this.decls.fileOf(id)));
      if (found.length > 0) return found;
    }
    return all;
  }

  /** Methods `name` of the given types or, failing that, of their supertypes (nearest first). */
  private membersOf(
    types: readonly DeclId[],
    name: string,
    via: CallVia,
    confidence: Confidence,
  ): Binding | undefined {
    let level = [...types];
    const seen = new Set<DeclId>(level);
    for (let depth = 0; depth <= MAX_SUPER_DEPTH && level.length > 0; depth++) {
      const found = level.flatMap((type) => this.methodsOfType(type, name));
      if (found.length > 0)
        return { targets: found, confidence: found.length === 1 ? confidence : 'ambiguous', via };
      const next: DeclId[] = [];
      for (const type of level)
        for (const parent of this.supertypeDecls(type))
          if (!seen.has(parent)) {
            seen.add(parent);
            next.push(parent);
          }
      level = next;
    }
    return undefined;
  }

  /** The members `name` of one type: its children, or methods attached to its name in the same family and folder. */
  methodsOfType(type: DeclId, name: string): DeclId[] {
    const typeFile = this.decls.fileOf(type);
    const typeSymbol = this.decls.symbolOf(type);
    const attached = this.decls.membersOf(typeSymbol.name, name);
    const children = attached.filter((id) => {
      const symbol = this.decls.symbolOf(id);
      const file = this.decls.fileOf(id);
      if (file === typeFile && symbol.parent !== undefined)
        return this.decls.idOf(file, symbol.parent) === type;
      // Declared apart from its type: a Go method in another file of the package, a Rust impl, C++ `T::f`.
      return (
        file.root === typeFile.root &&
        this.sameFamily(typeFile, id) &&
        this.reach.inSameFolder(typeFile, file)
      );
    });
    return children;
  }

  /** The declared supertypes of a type that the workspace declares, resolved from the type's own file. */
  supertypeDecls(type: DeclId): DeclId[] {
    const symbol = this.decls.symbolOf(type);
    if (!symbol.supertypes || !TYPE_KINDS.has(symbol.kind)) return [];
    const file = this.decls.fileOf(type);
    return symbol.supertypes.flatMap((name) =>
      this.visibleTypes(file, simpleName(name)).filter((id) => id !== type),
    );
  }

  /** Top-level declarations (no enclosing type) named `name` in `files`. */
  private topLevelIn(
    name: string,
    files: readonly IndexedFile[],
    holds: (file: IndexedFile) => boolean,
  ): DeclId[] {
    return this.decls.namedIn(name, files, holds).filter((id) => this.decls.ownerOf(id) === undefined);
  }

  /** Top-level declarations named `name` in the files `where` accepts, among all of that name. */
  private topLevelSeen(name: string, where: (file: IndexedFile) => boolean): DeclId[] {
    return this.decls
      .named(name)
      .filter((id) => where(this.decls.fileOf(id)) && this.decls.ownerOf(id) === undefined);
  }

  private isMember(id: DeclId): boolean {
    return this.decls.ownerOf(id) !== undefined;
  }

  private sameFamily(file: IndexedFile, id: DeclId): boolean {
    return familyOf(this.decls.fileOf(id)) === familyOf(file);
  }
}
