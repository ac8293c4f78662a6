const ky = new Map<string, string>();

export function keys(store: { get(key: string): string }): void {
  ky.get('/carts');
  store.get('/carts/1');
}
