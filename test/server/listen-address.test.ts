import { describe, expect, it } from 'vitest';
import {
  ListenAddressError,
  beyondLoopbackRefusal,
  isLoopbackHost,
  parseListenAddress,
} from '../../src/server/http/listen-address.js';

describe('--listen addresses', () => {
  it('reads host:port, [v6]:port, :port and a bare port', () => {
    expect(parseListenAddress('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseListenAddress('localhost:8808')).toEqual({ host: 'localhost', port: 8808 });
    expect(parseListenAddress('[::1]:9000')).toEqual({ host: '::1', port: 9000 });
    expect(parseListenAddress(':9000')).toEqual({ host: '127.0.0.1', port: 9000 });
    expect(parseListenAddress('9000')).toEqual({ host: '127.0.0.1', port: 9000 });
    expect(parseListenAddress('0.0.0.0:8080')).toEqual({ host: '0.0.0.0', port: 8080 });
  });

  it('refuses what it cannot read, saying what it expects', () => {
    expect(() => parseListenAddress('::1:8080')).toThrow(
      new ListenAddressError(
        '--listen ::1:8080: expected host:port (127.0.0.1:8808, [::1]:8808, :8808 or 8808)',
      ),
    );
    expect(() => parseListenAddress('host:70000')).toThrow(
      '--listen host:70000: the port must be a number from 0 to 65535',
    );
    expect(() => parseListenAddress('[example.com]:80')).toThrow(
      'only an IPv6 address goes between brackets',
    );
  });

  it('counts loopback names and addresses only as loopback', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      'localhost',
      'LOCALHOST',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com', 'localhost.example.com', '128.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('explains the refusal to listen beyond loopback', () => {
    expect(beyondLoopbackRefusal({ host: '::', port: 8080 })).toBe(
      'refusing to listen on [::]:8080 without authentication: anyone who can reach it could read the workspace. ' +
        'Listen on a loopback address (127.0.0.1, ::1 or localhost), or configure authentication first (see docs/deploy.md).',
    );
  });
});
