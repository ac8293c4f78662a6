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
      needsRestart: ['workspace.roots', 'docs.stop_words', 'tools.first_call_wait_seconds'],
    });
  });

  it('an unchanged file needs nothing', () => {
    const same = parsed({ workspace: { roots: ['api'] }, tools: { disabled_domains: ['graph'] } });
    expect(
      configChange(same, parsed({ workspace: { roots: ['api'] }, tools: { disabled_domains: ['graph'] } })),
    ).toEqual({
      disabledDomains: ['graph'],
      needsRestart: [],
    });
  });
});
