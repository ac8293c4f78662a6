import { connect, type Channel } from 'amqplib';

// The channel comes from a method of the class: `this` in the chain does not make it the class's own call.
export class UserEvents {
  private readonly connection = connect(process.env.AMQP_URL ?? 'amqp://localhost');

  private async channel(): Promise<Channel> {
    const connection = await this.connection;
    return connection.createChannel();
  }

  async created(body: string): Promise<void> {
    const channel = await this.channel();
    channel.publish('users', 'user.created', Buffer.from(body));
    const { queue } = await channel.assertQueue('user-mailer');
    await channel.bindQueue(queue, 'users', 'user.*');
    await channel.consume(queue, (msg) => msg);
  }
}
