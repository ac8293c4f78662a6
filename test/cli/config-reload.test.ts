import { describe, expect, it } from 'vitest';
import { configChange } from '../../src/cli/config-reload.js';
import { configSchema } from '../../src/core/config-schema.js';

const parsed = (raw: object) => configSchema.parse(raw);

describe('configChange', () => {
  it('applies [tools] disabled_domains at once and names every other changed setting for a restart', () => {
    const before = parsed({ workspace: { roots: ['api'] } });
    const after = parsed({
      workspace: { roots: ['api', 'web'] },
      tools: { disabled_domains: ['docs'], first_call_wait_seconds: 5 },
      docs: { stop_words: ['the'] },
    });
    expect(configChange(before, after)).toEqual({
      disabledDomains: ['docs'],
      visibility: { roles: {}, tenants: {} },
      needsRestart: ['workspace.roots', 'docs.stop_words', 'tools.first_call_wait_seconds'],
    });
  });

  it('names changed limits for a restart, so that a running server says they are not applied yet', () => {
    const before = parsed({ server: { limits: { roles: { reader: { rate: '10/s' } } } } });
    const after = parsed({ server: { limits: { roles: { reader: { rate: '5/s', daily: 100 } } } } });
    expect(configChange(before, after).needsRestart).toEqual(['server.limits']);
  });

  it('refuses a misspelt rate and an unknown limit with the reason', () => {
    const misspelt = configSchema.safeParse({ server: { limits: { local: { rate: '10 per second' } } } });
    expect(misspelt.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [
        'server.limits.local.rate',
        'a rate is written N/s, N/m or N/h with N a whole number from 1, e.g. 10/s',
      ],
    ]);
    const unknown = configSchema.safeParse({ server: { limits: { roles: { reader: { burst: 3 } } } } });
    expect(unknown.success).toBe(false);
  });

  it('applies [server.visibility] at once: it only changes which tools each key sees', () => {
    const before = parsed({ server: { visibility: { roles: { reader: ['code'] } } } });
    const after = parsed({
      server: {
        visibility: { roles: { reader: ['code', 'docs.search'] }, tenants: { acme: { reader: [] } } },
      },
    });
    expect(configChange(before, after)).toEqual({
      disabledDomains: [],
      visibility: { roles: { reader: ['code', 'docs.search'] }, tenants: { acme: { reader: [] } } },
      needsRestart: [],
    });
  });

  it('an unchanged file needs nothing', () => {
    const same = parsed({ workspace: { roots: ['api'] }, tools: { disabled_domains: ['graph'] } });
    expect(
      configChange(same, parsed({ workspace: { roots: ['api'] }, tools: { disabled_domains: ['graph'] } })),
    ).toEqual({
      disabledDomains: ['graph'],
      visibility: { roles: {}, tenants: {} },
      needsRestart: [],
    });
  });
});
