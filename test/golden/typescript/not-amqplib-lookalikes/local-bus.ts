import * as amqp from 'amqplib';
import { EventEmitter } from 'events';

class LocalBus {
  publish(exchange: string, key: string, body: unknown): void {}
}

export async function wire(): Promise<void> {
  await amqp.connect('amqp://localhost');
  const bus = new LocalBus();
  bus.publish('orders', 'order.placed', {});
  const emitter = new EventEmitter();
  (emitter as any).consume('orders', () => {});
}
