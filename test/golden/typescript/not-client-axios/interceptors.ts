import axios from 'axios';

const routes = new Map<string, string>();
const client = axios.create();
client.interceptors.request.use((config) => config);
routes.get('/users');
axios.isAxiosError(new Error('x'));
export const cache = { get: (key: string) => key };
cache.get('/users/1');
export function lookup(axiosLike: { get(url: string): void }): void {
  axiosLike.get('/users/2');
}
