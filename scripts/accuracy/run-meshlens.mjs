// Runs the built meshlens CLI against a local checkout with a throw-away config, cache and audit db.
// Shared by score.mjs and search-pages.mjs. Never downloads anything.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A temp folder holding the cache, audit db and outputs of one scoring run. */
export function makeScratch(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), `meshlens-${prefix}-`));
  return {
    dir,
    env: {
      ...process.env,
      MESHLENS_CACHE_DIR: path.join(dir, 'cache'),
      MESHLENS_AUDIT_DB: path.join(dir, 'audit.db'),
      // The run must be about the checkout only, never the caller's WORKSPACE_ROOT.
      WORKSPACE_ROOT: '',
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function isDir(p) {
  return existsSync(p) && statSync(p).isDirectory();
}

/** Runs `node <meshlens> ...args`, returning stdout, stderr, status and wall time. */
export function runMeshlens(meshlens, args, env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [meshlens, ...args], {
    env,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
  return {
    status: result.status ?? 1,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? '',
    ms,
    error: result.error,
  };
}

/**
 * The config `meshlens init` proposes for the checkout, optionally with extra roots, written to a hidden file
 * inside the checkout (paths in a config are relative to its own folder) so that the checkout's own
 * meshlens.toml, if any, is never touched. mode 'auto' instead runs `init --auto --force` (writes
 * meshlens.toml into the checkout) and uses it.
 */
export function prepareConfig({ meshlens, checkout, env, extraRoots = [], mode = 'print' }) {
  if (mode === 'auto') {
    const init = runMeshlens(meshlens, ['init', '--auto', '--force', '--workspace', checkout], env);
    if (init.status !== 0)
      throw new Error(`meshlens init --auto failed (${init.status}): ${init.stderr || init.stdout}`);
    const file = path.join(checkout, 'meshlens.toml');
    const text = patchRoots(readText(file), extraRoots);
    writeFileSync(file, text);
    return { file, text, cleanup: () => {} };
  }
  const init = runMeshlens(meshlens, ['init', '--workspace', checkout], env);
  if (init.status !== 0)
    throw new Error(`meshlens init failed (${init.status}): ${init.stderr || init.stdout}`);
  const text = patchRoots(init.stdout, extraRoots);
  const file = path.join(checkout, `.meshlens-accuracy-${process.pid}.toml`);
  writeFileSync(file, text, { flag: 'wx' });
  return { file, text, cleanup: () => rmSync(file, { force: true }) };
}

function readText(file) {
  return readFileSync(file, 'utf8');
}

/** Adds roots to the `roots = [` array of an init proposal. */
export function patchRoots(text, extraRoots) {
  if (extraRoots.length === 0) return text;
  const marker = /^roots = \[\s*$/m;
  if (!marker.test(text))
    throw new Error('cannot find `roots = [` in the init proposal to add --extra-roots');
  const added = extraRoots
    .map((r) => `  ${JSON.stringify(r)},  # added by scripts/accuracy (--extra-roots)`)
    .join('\n');
  return text.replace(marker, (m) => `${m}\n${added}`);
}

/** The `roots` lines of a config, for the report. */
export function rootsOf(configText) {
  const match = /^roots = \[([\s\S]*?)^\]/m.exec(configText);
  if (!match) return [];
  return [...match[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}
