import { ServiceBusClient } from '@azure/service-bus';

const client = new ServiceBusClient(process.env.SERVICEBUS_CONNECTION ?? '');

export async function run(): Promise<void> {
  const sender = client.createSender('invoices');
  await sender.sendMessages({ body: 'x' });
  const receiver = client.createReceiver('invoices');
  const topicReceiver = client.createReceiver('payments', 'billing');
  receiver.subscribe({ processMessage: async () => {}, processError: async () => {} });
  await topicReceiver.close();
}
