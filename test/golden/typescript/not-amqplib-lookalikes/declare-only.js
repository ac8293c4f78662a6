const amqp = require('amqplib');

// Declaring queues and exchanges is topology, not producing or consuming.
async function setup() {
  const connection = await amqp.connect('amqp://localhost');
  const channel = await connection.createChannel();
  await channel.assertQueue('declared_only', { durable: true });
  await channel.assertExchange('events', 'fanout');
  await channel.bindQueue('declared_only', 'events', '');
}

module.exports = { setup };
