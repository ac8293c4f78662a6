import { describe, expect, test } from 'vitest';
import { answersInDaemon, daemonMayAnswer, WRITING_COMMANDS } from '../../src/cli/command-routing.js';
import { OPERATIONS } from '../../src/ops/catalog.js';

const argv = (...words: string[]) => ['node', 'meshlens', ...words];
const may = (...words: string[]) => daemonMayAnswer(argv(...words), {});

describe('which command lines the CLI asks the workspace daemon to answer', () => {
  test('the writing commands it leaves to its own process are exactly those of the catalogue', () => {
    const writing = OPERATIONS.filter((op) => !answersInDaemon(op)).map((op) => `${op.domain} ${op.mode}`);
    expect([...WRITING_COMMANDS].sort()).toEqual(writing.sort());
    expect(writing.length).toBeGreaterThan(0);
  });

  test('reading operation commands, wherever the global options stand', () => {
    expect(may('code', 'search', '--query', 'x')).toBe(true);
    expect(may('--workspace', 'ws', 'code', 'search', '--query', 'x')).toBe(true);
    expect(may('--config=c.toml', 'contracts', 'dependents', '--target', 't', '--json')).toBe(true);
    expect(may('graph', 'visualize')).toBe(true);
    expect(may('memory', 'get', '--key', 'k')).toBe(true);
  });

  test('not writes, help, lifecycle commands, or when told not to', () => {
    expect(may('memory', 'put', '--key', 'k', '--value', 'v')).toBe(false);
    expect(may('admin', 'rescan')).toBe(false);
    expect(may('code', 'search', '--help')).toBe(false);
    expect(may('code', '-h')).toBe(false);
    expect(may('code')).toBe(false);
    expect(may('graph', '--format', 'html')).toBe(false);
    expect(may('index')).toBe(false);
    expect(may('serve')).toBe(false);
    expect(may('--version')).toBe(false);
    expect(may('code', 'search', '--query', 'x', '--no-daemon')).toBe(false);
    expect(daemonMayAnswer(argv('code', 'search', '--query', 'x'), { MESHLENS_NO_DAEMON: '1' })).toBe(false);
  });
});
