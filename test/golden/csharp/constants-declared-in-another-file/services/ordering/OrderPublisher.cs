using Confluent.Kafka;
using Dapr.Client;
using Shop.Messaging;

namespace Shop.Ordering;

public class OrderPublisher
{
    private readonly DaprClient _dapr;
    private readonly IProducer<string, string> _producer;

    public OrderPublisher(DaprClient dapr, IProducer<string, string> producer)
    {
        _dapr = dapr;
        _producer = producer;
    }

    public async Task Created(Order order)
    {
        await _dapr.PublishEventAsync("pubsub", Topics.OrderCreated, order);
        await _dapr.PublishEventAsync("pubsub", Topics.OrderCancelled, order);
        await _producer.ProduceAsync(Topics.Kafka.Payments, new Message<string, string> { Value = order.Id });
    }
}

public record Order(string Id);
