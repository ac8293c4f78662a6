import { PubSub } from '@google-cloud/pubsub';

const pubsub = new PubSub();
const TOPIC = 'order-created';

export async function publish(data: Buffer): Promise<void> {
  await pubsub.topic(TOPIC).publishMessage({ data });
  const audit = pubsub.topic(process.env.AUDIT_TOPIC ?? 'audit');
  await audit.publish(data);
}

export function listen(): void {
  const subscription = pubsub.subscription('order-created-mailer');
  subscription.on('message', (message) => message.ack());
  subscription.on('error', (err) => console.error(err));
}

export function listenOnTopic(): void {
  pubsub
    .topic(TOPIC)
    .subscription('order-created-audit')
    .on('message', (message) => message.ack());
}
