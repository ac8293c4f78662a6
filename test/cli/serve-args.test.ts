import { describe, expect, test } from 'vitest';
import { daemonArgsOf, serveArgsOf } from '../../src/cli/serve-args.js';

const argv = (...words: string[]) => ['node', 'meshlens', ...words];

describe('serveArgsOf (the serve fast path)', () => {
  test('reads a plain serve command line, global options before the command included', () => {
    expect(serveArgsOf(argv('serve'))).toEqual({
      surface: 'domain',
      structuredOutput: true,
      watch: true,
      allowOutsideWorkspace: false,
      daemon: true,
    });
    expect(serveArgsOf(argv('serve', '--text-only'))).toEqual({
      surface: 'domain',
      structuredOutput: false,
      watch: true,
      allowOutsideWorkspace: false,
      daemon: true,
    });
    expect(
      serveArgsOf(
        argv(
          '--workspace',
          'ws',
          '--config=c.toml',
          'serve',
          '--surface',
          'flat',
          '--no-watch',
          '--structured-output',
        ),
      ),
    ).toEqual({
      workspace: 'ws',
      config: 'c.toml',
      surface: 'flat',
      structuredOutput: true,
      watch: false,
      allowOutsideWorkspace: false,
      daemon: true,
    });
    // The flag that lets the config read outside the workspace, before or after the command.
    for (const words of [
      ['--allow-outside-workspace', 'serve'],
      ['serve', '--allow-outside-workspace'],
    ]) {
      expect(serveArgsOf(argv(...words))?.allowOutsideWorkspace, words.join(' ')).toBe(true);
    }
  });

  test('leaves everything else to the full CLI, which explains it', () => {
    for (const words of [
      [],
      ['index'],
      ['serve', '--help'],
      ['serve', '--surface', 'bogus'],
      ['serve', '--unknown'],
      ['serve', 'extra'],
      ['serve', '--watch'],
      ['code', 'search', '--query', 'x'],
      ['serve', '--listen', '127.0.0.1:0'],
      ['serve', '--allow-origin', 'https://app.example'],
    ]) {
      expect(serveArgsOf(argv(...words)), words.join(' ')).toBeUndefined();
    }
  });

  test('reads serve --http with its listen address and allowed origins', () => {
    expect(serveArgsOf(argv('serve', '--http'))?.http).toEqual({ allowedOrigins: [] });
    expect(
      serveArgsOf(
        argv(
          'serve',
          '--http',
          '--listen',
          '127.0.0.1:0',
          '--allow-origin',
          'https://a.example',
          '--allow-origin',
          'https://b.example',
        ),
      )?.http,
    ).toEqual({ listen: '127.0.0.1:0', allowedOrigins: ['https://a.example', 'https://b.example'] });
    expect(serveArgsOf(argv('serve'))?.http).toBeUndefined();
  });

  test('reads --no-daemon, and the hidden daemon command with the options that decide what is indexed', () => {
    expect(serveArgsOf(argv('serve', '--no-daemon'))?.daemon).toBe(false);
    expect(daemonArgsOf(argv('daemon', '--workspace', '/w', '--config', '/w/m.toml', '--no-watch'))).toEqual({
      workspace: '/w',
      config: '/w/m.toml',
      surface: 'domain',
      structuredOutput: true,
      watch: false,
      allowOutsideWorkspace: false,
      daemon: true,
    });
    expect(daemonArgsOf(argv('serve'))).toBeUndefined();
    expect(daemonArgsOf(argv('daemon', '--http'))).toBeUndefined();
    expect(serveArgsOf(argv('daemon'))).toBeUndefined();
  });
});
