import http from 'k6/http';
import { sleep } from 'k6';

const BASE_URL = __ENV.K6_TARGET_URL || 'http://frontend-proxy:8080';

export default function () {
  http.get(`${BASE_URL}/`);
  http.get(`${BASE_URL}/api/products/${Math.floor(Math.random() * 9)}`);
  http.post(`${BASE_URL}/api/cart`, JSON.stringify({ item: 'x' }), { headers: { 'Content-Type': 'application/json' } });
  http.del(`${BASE_URL}/api/cart`);
  http.request('PUT', `${BASE_URL}/api/currency`, '{}');
  sleep(1);
}
