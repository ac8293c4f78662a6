using RabbitMQ.Client;
using RabbitMQ.Client.Events;

namespace Shop.Orders;

// An RPC client: requests go to a named queue, replies come back on a server-named one.
public class PriceClient
{
    private const string RequestQueue = "price_requests";
    private readonly IModel _channel;
    private readonly string _replyQueue;

    public void Start()
    {
        _channel.BasicConsume(consumer: new EventingBasicConsumer(_channel), queue: _replyQueue, autoAck: true);
    }

    public void Ask(byte[] body)
    {
        var props = _channel.CreateBasicProperties();
        props.ReplyTo = _replyQueue;
        _channel.BasicPublish(exchange: "", routingKey: RequestQueue, basicProperties: props, body: body);
    }

    public PriceClient(IConnection connection)
    {
        _channel = connection.CreateModel();
        this._replyQueue = _channel.QueueDeclare().QueueName;
    }
}
