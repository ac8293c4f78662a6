import { fetch as cachedFetch } from './cache';

class Store {
  fetch(key: string): string {
    return key;
  }
}

const store = new Store();
const apollo = makeClient();

export function run(cache: Map<string, string>, fetch: (key: string) => string): void {
  store.fetch('/orders');
  apollo.fetch('/graphql');
  cache.get('/orders/1');
  fetch('/local-parameter');
  cachedFetch('/orders');
}
