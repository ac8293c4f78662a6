import { DaprClient, DaprServer } from '@dapr/dapr';

const PUBSUB = 'orderpubsub';
enum Topics {
  Paid = 'order-paid',
}

export async function main(): Promise<void> {
  const client = new DaprClient({ daprHost: process.env.DAPR_HOST });
  await client.pubsub.publish(PUBSUB, Topics.Paid, { id: 1 });
  const server = new DaprServer({ serverPort: '5002' });
  await server.pubsub.subscribe(PUBSUB, process.env.SHIPMENTS_TOPIC ?? 'shipments', async (data: unknown) => {
    console.log(data);
  });
  await server.start();
}
