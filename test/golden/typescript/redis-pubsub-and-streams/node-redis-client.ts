import { createClient } from 'redis';

const client = createClient({ url: process.env.REDIS_URL });

export async function run(): Promise<void> {
  const subscriber = client.duplicate();
  await subscriber.subscribe(['notifications', 'alerts'], (message) => console.log(message));
  await subscriber.pSubscribe('user:*', (message, channel) => console.log(channel, message));
  await client.publish(process.env.EVENTS_CHANNEL ?? 'events', 'hello');
  await client.xAdd('clicks', '*', { page: '/' });
  await client.xReadGroup('analytics', 'c1', [{ key: 'clicks', id: '>' }], { COUNT: 10 });
}

const ALERTS = 'alerts';
function onAlert(message: string): void {
  console.log(message);
}

export async function listen(): Promise<void> {
  const listener = client.duplicate();
  await listener.subscribe(ALERTS, onAlert);
  await listener.subscribe('metrics', message => console.log(message));
}
