import nodeFetch from 'node-fetch';
import { fetch as undiciFetch, request } from 'undici';
import path from 'node:path';

const ORDERS = process.env.ORDERS_URL ?? 'http://orders:8080';
const { CATALOG_URL } = process.env;

export async function load(id: string): Promise<void> {
  await fetch(new URL(`/orders/${id}`, ORDERS));
  await window.fetch(`${CATALOG_URL}/products`);
  await nodeFetch(`${ORDERS}/orders`, { method: 'POST' });
  await fetch(new Request(`${CATALOG_URL}/products/${id}`, { method: 'DELETE' }));
  const put = new Request(new URL('items', process.env['CART_URL']), { method: 'PUT' });
  await fetch(put);
  await undiciFetch(`${process.env.PAYMENT_URL}/charges`, { method: 'POST' });
  await request(`${ORDERS}/orders/${id}/lines`, { method: 'GET' });
  await fetch(path.join(CATALOG_URL as string, 'categories', id));
  const target = new URL(`/reviews/${id}`, 'http://reviews:9000');
  await globalThis.fetch(target.href, { method: 'PATCH' });
}
