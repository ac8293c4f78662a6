import { describe, expect, it } from 'vitest';
import { SessionLedger } from '../../src/server/daemon/session-ledger.js';

const line = (message: object) => JSON.stringify({ jsonrpc: '2.0', ...message });
const initialize = line({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } });
const initialized = line({ method: 'notifications/initialized' });

describe('the thin client session ledger', () => {
  it('loses the unanswered requests and replays an answered initialize under a replay id', () => {
    const ledger = new SessionLedger();
    ledger.sent(initialize);
    ledger.received(line({ id: 1, result: {} }));
    ledger.sent(initialized);
    ledger.sent(line({ id: 2, method: 'tools/call', params: { name: 'index_status' } }));
    ledger.sent(line({ id: '2', method: 'tools/list' }));
    ledger.sent(line({ id: 3, method: 'tools/call' }));
    ledger.received(line({ id: 3, result: {} }));
    ledger.sent(line({ id: 4, method: 'tools/call' }));
    ledger.sent(line({ method: 'notifications/cancelled', params: { requestId: 4 } }));
    ledger.sent(line({ id: 5, method: 'logging/setLevel', params: { level: 'debug' } }));
    ledger.received(line({ id: 5, result: {} }));
    // A server request answered by the client is not a request of the client's.
    ledger.sent(line({ id: 9, result: {} }));

    expect(ledger.takeLost()).toEqual([2, '2']);
    expect(ledger.takeLost()).toEqual([]);
    const replay = ledger.replay((n) => `replay-${n}`);
    expect(replay.lines).toEqual([
      line({ id: 'replay-1', method: 'initialize', params: { protocolVersion: '2025-06-18' } }),
      initialized,
      line({ id: 'replay-2', method: 'logging/setLevel', params: { level: 'debug' } }),
    ]);
    expect([...replay.swallow]).toEqual(['"replay-1"', '"replay-2"']);
    expect(ledger.received(line({ id: 'replay-1', result: {} }))).toBe('"replay-1"');
    expect(ledger.received(line({ id: 'replay-1', method: 'ping' }))).toBeUndefined();
    expect(ledger.received('not json')).toBeUndefined();
  });

  it('sends an unanswered initialize again as it was, so that its answer reaches the client', () => {
    const ledger = new SessionLedger();
    ledger.sent(initialize);
    expect(ledger.takeLost()).toEqual([]);
    const replay = ledger.replay((n) => `replay-${n}`);
    expect(replay.lines).toEqual([initialize]);
    expect(replay.swallow.size).toBe(0);
    ledger.received(line({ id: 1, result: {} }));
    expect(ledger.takeLost()).toEqual([]);
  });
});
