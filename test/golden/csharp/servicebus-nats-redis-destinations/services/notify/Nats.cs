using NATS.Client.Core;

namespace Shop.Notify;

public class NatsWorker
{
    private const string Subject = "orders.created";

    public async Task Run(NatsConnection nats)
    {
        await nats.PublishAsync(Subject, new { Id = 1 });
        await foreach (var msg in nats.SubscribeAsync<string>("orders.>"))
        {
        }
        await nats.RequestAsync<string, string>(subject: "pricing.quote", data: "x");
    }
}
