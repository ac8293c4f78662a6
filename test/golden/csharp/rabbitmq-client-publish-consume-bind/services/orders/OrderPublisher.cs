using System.Text;
using RabbitMQ.Client;

namespace Shop.Orders;

// RabbitMQ.Client v6: IModel with positional arguments.
public class OrderPublisher
{
    private const string Exchange = "orders";
    private readonly IModel _channel;

    public OrderPublisher(IModel channel)
    {
        _channel = channel;
        _channel.ExchangeDeclare(Exchange, ExchangeType.Topic);
        _channel.QueueDeclare("billing", durable: true, exclusive: false, autoDelete: false);
    }

    public void Placed(string json)
    {
        _channel.BasicPublish(Exchange, "order.placed", null, Encoding.UTF8.GetBytes(json));
    }

    public void ToBilling(string json)
    {
        // The default exchange routes by queue name.
        _channel.BasicPublish("", "billing", null, Encoding.UTF8.GetBytes(json));
    }

    public void Audit(string json)
    {
        var exchange = Environment.GetEnvironmentVariable("AUDIT_EXCHANGE") ?? "audit";
        _channel.BasicPublish(exchange, string.Empty, null, Encoding.UTF8.GetBytes(json));
    }

    public void Listen(IBasicConsumer consumer)
    {
        // The queue's name comes back from its declaration.
        var declared = _channel.QueueDeclare(queue: "audit-log", durable: true, exclusive: false, autoDelete: false);
        _channel.QueueBind(declared.QueueName, "audit", "#");
        _channel.BasicConsume(declared.QueueName, false, consumer);
    }

    public void Forward(string target, string json)
    {
        _channel.BasicPublish(exchange: target, routingKey: "forwarded", basicProperties: null, body: Encoding.UTF8.GetBytes(json));
    }
}
