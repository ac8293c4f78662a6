using Dapr.Client;

namespace Shop.Checkout;

public class CheckoutService
{
    private const string PubSub = "orderpubsub";
    private readonly DaprClient _dapr;

    public CheckoutService(DaprClient dapr) => _dapr = dapr;

    public Task Placed(Order order) => _dapr.PublishEventAsync(PubSub, "orders", order);

    public Task Cancelled(Order order) =>
        _dapr.PublishEventAsync(pubsubName: PubSub, topicName: Environment.GetEnvironmentVariable("CANCEL_TOPIC") ?? "orders-cancelled", data: order);

    public Task Forward(string topic, Order order) => _dapr.PublishEventAsync(PubSub, topic, order);
}

public record Order(int Id);
