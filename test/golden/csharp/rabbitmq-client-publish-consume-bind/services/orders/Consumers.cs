using RabbitMQ.Client;
using RabbitMQ.Client.Events;

// RabbitMQ.Client v7: IChannel, async calls with named arguments.
const string Billing = "billing";

var factory = new ConnectionFactory { HostName = "localhost" };
using var connection = await factory.CreateConnectionAsync();
using var channel = await connection.CreateChannelAsync();

// A named queue bound to the orders exchange twice.
await channel.QueueDeclareAsync(queue: "shipping", durable: true, exclusive: false, autoDelete: false);
await channel.QueueBindAsync(queue: "shipping", exchange: "orders", routingKey: "order.placed");
await channel.QueueBindAsync(queue: "shipping", exchange: "orders", routingKey: "order.cancelled");
var shipping = new AsyncEventingBasicConsumer(channel);
await channel.BasicConsumeAsync(queue: "shipping", autoAck: true, consumer: shipping);

// A named queue bound to nothing: fed through the default exchange.
await channel.QueueDeclareAsync(queue: Billing, durable: true, exclusive: false, autoDelete: false);
await channel.BasicConsumeAsync(Billing, false, new AsyncEventingBasicConsumer(channel));

// A server-named queue bound with keys from the command line.
var declared = await channel.QueueDeclareAsync();
string queueName = declared.QueueName;
foreach (var key in args)
{
    await channel.QueueBindAsync(queueName, "orders", key);
}
await channel.BasicConsumeAsync(queueName, autoAck: true, consumer: new AsyncEventingBasicConsumer(channel));

// An RPC reply queue: server-named and bound to nothing.
var replyQueue = (await channel.QueueDeclareAsync()).QueueName;
await channel.BasicConsumeAsync(replyQueue, true, new AsyncEventingBasicConsumer(channel));
