import http from 'node:http';
import https from 'https';
import { request } from 'http';

export function probe(done: () => void): void {
  http.get('http://inventory:8080/health', done);
  https.request({ hostname: 'payments', port: 8443, path: '/charges', method: 'POST' }, done).end();
  request(`${process.env.AUDIT_URL}/events`, { method: 'PUT' }, done).end();
  http.request({ protocol: 'http:', host: 'shipping', path: `/ship/${1}` }).end();
}
