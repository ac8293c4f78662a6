import { describe, expect, it } from 'vitest';
import {
  MAX_SOCKET_PATH_BYTES,
  daemonKey,
  daemonLocation,
  type DaemonIdentity,
} from '../../src/server/daemon/socket-path.js';

const identity: DaemonIdentity = {
  workspaceDir: '/home/dev/shop',
  configFile: '/home/dev/shop/meshlens.toml',
  cacheDir: '/home/dev/.cache/meshlens',
  settings: { watch: 'true', audit: '/home/dev/.cache/meshlens/audit.db' },
};
const places = { runtimeDir: undefined, tmpDir: '/tmp', uid: 1000 };

describe('the daemon socket path', () => {
  it('is keyed by workspace, config file, cache folder and settings, in any settings order', () => {
    const key = daemonKey(identity);
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(
      daemonKey({ ...identity, settings: { audit: identity.settings.audit as string, watch: 'true' } }),
    ).toBe(key);
    const others = [
      { ...identity, workspaceDir: '/home/dev/other' },
      { ...identity, configFile: undefined },
      { ...identity, configFile: '/home/dev/shop/alt.toml' },
      { ...identity, cacheDir: '/tmp/cache' },
      { ...identity, settings: { ...identity.settings, watch: 'false' } },
    ];
    const keys = new Set([key, ...others.map(daemonKey)]);
    expect(keys.size).toBe(6);
  });

  it('goes under $XDG_RUNTIME_DIR when set, else under the cache folder', () => {
    const key = daemonKey(identity);
    expect(daemonLocation(identity, { ...places, runtimeDir: '/run/user/1000' })).toEqual({
      dir: `/run/user/1000/meshlens/${key}`,
      socket: `/run/user/1000/meshlens/${key}/sock`,
      pidFile: `/run/user/1000/meshlens/${key}/pid`,
      lockFile: `/run/user/1000/meshlens/${key}/lock`,
      logFile: `/run/user/1000/meshlens/${key}/daemon.log`,
    });
    expect(daemonLocation(identity, places).socket).toBe(`/home/dev/.cache/meshlens/daemons/${key}/sock`);
    // A relative runtime folder is invalid per the XDG spec and ignored.
    expect(daemonLocation(identity, { ...places, runtimeDir: 'run' }).socket).toBe(
      `/home/dev/.cache/meshlens/daemons/${key}/sock`,
    );
  });

  it('falls back to a per-user temp folder when the socket path would not fit sun_path', () => {
    const deep = { ...identity, cacheDir: `/home/dev/${'very-long-folder-name/'.repeat(5)}cache` };
    const key = daemonKey(deep);
    expect(daemonLocation(deep, places).socket).toBe(`/tmp/meshlens-1000/${key}/sock`);
    const longTmp = { ...places, tmpDir: `/var/${'t'.repeat(120)}` };
    expect(daemonLocation(deep, longTmp).socket).toBe(`/tmp/meshlens-1000/${key}/sock`);
    for (const location of [daemonLocation(deep, places), daemonLocation(identity, places)]) {
      expect(Buffer.byteLength(location.socket)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    }
  });
});
