import amqp from 'amqp-connection-manager';
import type { Channel } from 'amqplib';

const connection = amqp.connect(['amqp://localhost']);
const wrapper = connection.createChannel({
  json: true,
  setup: async (channel: Channel) => {
    await channel.assertQueue('emails', { durable: true });
    await channel.consume('emails', (msg) => msg);
  },
});

export async function notify(to: string): Promise<void> {
  await wrapper.sendToQueue('emails', { to });
  await wrapper.publish('notifications', 'email.sent', { to });
}
