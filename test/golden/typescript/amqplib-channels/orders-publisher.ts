import * as amqp from 'amqplib';

const ORDERS_EXCHANGE = 'orders';
const AUDIT_QUEUE = process.env.AUDIT_QUEUE ?? 'audit';

export class OrdersPublisher {
  private channel?: amqp.Channel;

  async start(): Promise<void> {
    const connection = await amqp.connect(process.env.AMQP_URL ?? 'amqp://localhost');
    this.channel = await connection.createChannel();
    await this.channel.assertExchange(ORDERS_EXCHANGE, 'topic', { durable: true });
  }

  placed(body: Buffer): void {
    this.channel?.publish(ORDERS_EXCHANGE, 'order.placed', body);
  }

  audited(body: Buffer): void {
    // The default exchange routes by queue name.
    this.channel?.publish('', AUDIT_QUEUE, body);
  }

  replied(replyTo: string, body: Buffer): void {
    this.channel?.sendToQueue(replyTo, body);
  }
}
