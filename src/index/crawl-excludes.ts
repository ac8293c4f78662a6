/**
 * What the crawl leaves out whatever the ignore files say: generated and tool folders, files holding
 * credentials, and the configured `exclude` patterns.
 */
import { IGNORE_CASE, newMatcher, type Matcher } from './crawl-ignore-files.js';

/** Generated, third-party or tool-state folders: never source a user wants answers about, and often huge. */
// prettier-ignore
export const DEFAULT_EXCLUDES: readonly string[] = [
  // `.git` is a folder in a clone and a file in a worktree or submodule checkout.
  '.git', '.hg/', '.svn/',
  'node_modules/', 'bower_components/', 'jspm_packages/', '.yarn/', '.pnpm-store/',
  'dist/', 'build/', 'target/', 'coverage/', '.nyc_output/',
  '.next/', '.nuxt/', '.svelte-kit/', '.angular/', '.turbo/', '.parcel-cache/',
  '.venv/', 'venv/', '__pycache__/', '.mypy_cache/', '.pytest_cache/', '.ruff_cache/', '.tox/', '.nox/',
  '.eggs/', '*.egg-info/',
  'vendor/', '.gradle/', '.idea/', '.vs/', '.terraform/', '.dart_tool/',
];

/** Files holding credentials: left out unless `includeSecretFiles`, so they never reach an index or reply. */
// prettier-ignore
export const SECRET_FILE_PATTERNS: readonly string[] = [
  '.env', '.env.*', '*.pem', '*.key', '*.p12', '*.pfx', '*.keystore', '*.jks',
  'id_rsa*', 'id_dsa*', 'id_ecdsa*', 'id_ed25519*',
  '.netrc', '.pgpass', '.npmrc', '.pypirc',
];

/**
 * Defaults, secrets and the configured excludes. These prune unconditionally (ignore files cannot re-include
 * what they leave out), which is why the `ignore` package's own parent-folder inheritance is harmless here.
 * They are tested against every entry, so the common shapes — a plain name, `*suffix`, `prefix*`, each
 * optionally folder-only — are answered from the name alone (exactly what git does with a slash-less
 * pattern); anything else goes through `ignore`. A negation anywhere turns the shortcut off, since then the
 * order of the patterns matters.
 */
export class BaseFilter {
  private readonly names = new Set<string>();
  private readonly dirNames = new Set<string>();
  private readonly affixes: { readonly text: string; readonly suffix: boolean; readonly dirOnly: boolean }[] =
    [];
  private readonly ig: Matcher | undefined;

  constructor(patterns: readonly string[]) {
    const shortcut = !patterns.some((p) => p.trimStart().startsWith('!'));
    const rest: string[] = [];
    for (const raw of patterns) {
      const pattern = raw.trim();
      const dirOnly = pattern.endsWith('/');
      const body = dirOnly ? pattern.slice(0, -1) : pattern;
      const shape = /^(\*?)([^*?[\]\\/!#]+)(\*?)$/.exec(body);
      if (shortcut && shape?.[2] && !(shape[1] && shape[3])) {
        const text = IGNORE_CASE ? shape[2].toLowerCase() : shape[2];
        if (shape[1]) this.affixes.push({ text, suffix: true, dirOnly });
        else if (shape[3]) this.affixes.push({ text, suffix: false, dirOnly });
        else (dirOnly ? this.dirNames : this.names).add(text);
      } else if (pattern !== '') {
        rest.push(raw);
      }
    }
    this.ig = rest.length > 0 ? newMatcher().add(rest) : undefined;
  }

  excludes(rel: string, name: string, isDir: boolean): boolean {
    const key = IGNORE_CASE ? name.toLowerCase() : name;
    if (this.names.has(key) || (isDir && this.dirNames.has(key))) return true;
    for (const { text, suffix, dirOnly } of this.affixes) {
      if ((isDir || !dirOnly) && (suffix ? key.endsWith(text) : key.startsWith(text))) return true;
    }
    return this.ig?.ignores(isDir ? `${rel}/` : rel) ?? false;
  }
}

/** The part of the crawl options that decides what is left out whatever the ignore files say. */
export interface ExcludeOptions {
  /**
   * Extra gitignore-style patterns, relative to each root. They come after the defaults and the secret
   * patterns, so a negation (`!vendor/`, `!.env.example`) re-includes something those leave out.
   */
  readonly exclude?: readonly string[];
  readonly includeSecretFiles?: boolean;
}

export function baseFilter(options: ExcludeOptions | undefined): BaseFilter {
  const secrets = options?.includeSecretFiles ? [] : SECRET_FILE_PATTERNS;
  return new BaseFilter([...DEFAULT_EXCLUDES, ...secrets, ...(options?.exclude ?? [])]);
}
