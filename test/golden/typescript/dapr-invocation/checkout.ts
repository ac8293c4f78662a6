import axios from 'axios';
import { DaprClient, DaprServer, HttpMethod } from '@dapr/dapr';

const client = new DaprClient({ daprHost: '127.0.0.1', daprPort: process.env.DAPR_HTTP_PORT });
const SIDECAR = `http://localhost:${process.env.DAPR_HTTP_PORT ?? '3500'}`;

export async function checkout(id: string, sku: string): Promise<void> {
  await client.invoker.invoke('order-processor', 'orders', HttpMethod.POST, { id });
  await client.invoker.invoke('inventory', `items/${sku}`, HttpMethod.GET);
  await fetch(`${SIDECAR}/v1.0/invoke/payments/method/charges/${id}`, { method: 'POST' });
  await axios.post(`${SIDECAR}/orders`, { id }, { headers: { 'dapr-app-id': 'order-processor' } });
}

const server = new DaprServer({ serverHost: '127.0.0.1', serverPort: '3000' });
server.invoker.listen('refunds', async (data) => data, { method: HttpMethod.POST });
