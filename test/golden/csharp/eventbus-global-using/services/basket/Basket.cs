namespace Shop.Basket;

// The event bus namespaces come from a global using in another file: only distinctive names count.
public class OrderStartedIntegrationEventHandler(IEventBus eventBus, IPublisher publisher)
    : IIntegrationEventHandler<OrderStartedIntegrationEvent>
{
    public async Task Handle(OrderStartedIntegrationEvent @event)
    {
        await eventBus.PublishAsync(new BasketClearedIntegrationEvent(@event.UserId));
        // Not an event bus by its name: nothing.
        await publisher.Publish(new BasketClearedIntegrationEvent(@event.UserId));
    }
}

public static class Registration
{
    public static void AddEvents(this IHostApplicationBuilder builder) =>
        builder.AddRabbitMqEventBus("eventbus").AddSubscription<OrderStartedIntegrationEvent, OrderStartedIntegrationEventHandler>();
}
