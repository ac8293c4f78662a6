import ky from 'ky';

const api = ky.create({ prefixUrl: 'http://cart:3000/api' });
const admin = api.extend({ prefixUrl: process.env.ADMIN_URL });

export async function cart(id: string): Promise<void> {
  await api.get(`carts/${id}`).json();
  await ky.post('http://cart:3000/api/carts', { json: {} });
  await ky(`http://cart:3000/api/carts/${id}`, { method: 'DELETE' });
  await admin.put('flags');
}
