const amqp = require('amqplib');

async function call(n) {
  const connection = await amqp.connect('amqp://localhost');
  const channel = await connection.createChannel();
  // A server-named reply queue bound to nothing is the reply side of the call, not a topic.
  const { queue } = await channel.assertQueue('', { exclusive: true });
  channel.consume(queue, (msg) => msg, { noAck: true });
  channel.consume('amq.rabbitmq.reply-to', (msg) => msg, { noAck: true });
  channel.sendToQueue('rpc_requests', Buffer.from(String(n)), { replyTo: queue });
  const jobs = 'jobs';
  await channel.assertQueue(jobs);
  await channel.consume(jobs, (msg) => msg);
}

module.exports = { call };
