// Not k6: a local `http` object and an `__ENV`-like name in an ordinary script.
const http = { get: (key) => key, post: (key, value) => value };
const __ENV = { BASE: 'http://example:8080' };

export function warm() {
  http.get(`${__ENV.BASE}/api/products`);
  http.post('/api/cart', '{}');
}
