import http from 'node:http';

const server = http.createServer((req, res) => res.end());
server.listen(8080);
const agent = new http.Agent({ keepAlive: true });
export function close(cache: Map<string, string>): void {
  cache.get('/health');
  agent.destroy();
}
