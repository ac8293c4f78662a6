using MassTransit;

namespace Shop.Payment;

public record LedgerEntry(int OrderId);

// MassTransit's Kafka rider: topics by name; the in-memory transport keeps its messages on the bus.
public static class Rider
{
    public static void Configure(IBusRegistrationConfigurator x)
    {
        x.UsingInMemory();
        x.AddRider(rider =>
        {
            rider.AddProducer<LedgerEntry>("ledger-entries");
            rider.UsingKafka((context, k) =>
            {
                k.TopicEndpoint<LedgerEntry>("ledger-entries", "payment", e => e.ConfigureConsumer<LedgerConsumer>(context));
            });
        });
    }
}

public class LedgerConsumer : IConsumer<LedgerEntry>
{
    public Task Consume(ConsumeContext<LedgerEntry> context) => context.Publish(new LedgerPosted(context.Message.OrderId));
}
