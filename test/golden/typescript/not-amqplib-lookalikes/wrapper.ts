import amqp from 'amqplib';

// A wrapper's own methods share the client's names; only the client's calls are events.
export class Rabbit {
  private readonly url = 'amqp://localhost';

  async publish(name: string, body: unknown): Promise<void> {
    const connection = await amqp.connect(this.url);
    await connection.close();
    console.log(name, body);
  }

  async placed(): Promise<void> {
    await this.publish('orders', { id: 1 });
  }
}
