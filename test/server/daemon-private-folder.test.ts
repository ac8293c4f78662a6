import { chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderNotPrivateError, ensurePrivateFolder } from '../../src/server/daemon/private-folder.js';

const made: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'meshlens-private-'));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the daemon folder', () => {
  it('is created owner-only, and an existing folder open to others is closed', () => {
    const base = scratch();
    const dir = path.join(base, 'meshlens-1', 'abc');
    ensurePrivateFolder(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.dirname(dir)).mode & 0o777).toBe(0o700);
    const open = path.join(base, 'open', 'abc');
    mkdirSync(open, { recursive: true, mode: 0o755 });
    ensurePrivateFolder(open);
    expect(statSync(open).mode & 0o777).toBe(0o700);
  });

  it('refuses a symlink in place of the folder', () => {
    const base = scratch();
    mkdirSync(path.join(base, 'elsewhere'));
    mkdirSync(path.join(base, 'parent'));
    symlinkSync(path.join(base, 'elsewhere'), path.join(base, 'parent', 'abc'));
    const dir = path.join(base, 'parent', 'abc');
    expect(() => ensurePrivateFolder(dir)).toThrow(
      new FolderNotPrivateError(
        `${dir} is not a folder (a symlink or file is in its place); remove it, or run \`meshlens serve --no-daemon\`.`,
      ),
    );
  });

  it.runIf(process.getuid?.() === 0)('refuses a folder another user created first (as root: chown)', () => {
    const base = scratch();
    const squatted = path.join(base, 'meshlens-1000');
    mkdirSync(squatted, { mode: 0o777 });
    chownSync(squatted, 4242, 4242);
    expect(() => ensurePrivateFolder(path.join(squatted, 'abc'))).toThrow(
      `${squatted} belongs to another user (uid 4242), so the daemon socket cannot go there safely; ` +
        'remove it, set XDG_RUNTIME_DIR to a folder of your own, or run `meshlens serve --no-daemon`.',
    );
  });
});
