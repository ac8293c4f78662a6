using Shop.BuildingBlocks.EventBus.Abstractions;
using Shop.BuildingBlocks.EventBus.Events;

namespace Shop.Ordering;

public record OrderStartedIntegrationEvent(string BuyerId) : IntegrationEvent;
public record OrderPaidIntegrationEvent(int OrderId) : IntegrationEvent;

public class OrderingService
{
    private readonly IEventBus _eventBus;
    private readonly IMediator _mediator;

    public OrderingService(IEventBus eventBus, IMediator mediator)
    {
        _eventBus = eventBus;
        _mediator = mediator;
    }

    public async Task Start(string buyer)
    {
        _eventBus.Publish(new OrderStartedIntegrationEvent(buyer));
        var paid = new OrderPaidIntegrationEvent(1);
        await _eventBus.PublishAsync(paid);
        // An in-process notification is no integration event.
        await _mediator.Publish(new OrderStartedDomainEvent(buyer));
    }

    // A base-typed variable: either event may be published.
    public Task Settle(bool paid)
    {
        IntegrationEvent outcome;
        if (paid) outcome = new OrderPaidIntegrationEvent(1);
        else outcome = new OrderStartedIntegrationEvent("again");
        return _eventBus.PublishAsync(outcome);
    }

    // A generic relay: which event is not known here.
    public Task Relay(IntegrationEvent evt) => _eventBus.PublishAsync(evt);
}

public static class Subscriptions
{
    public static void Configure(IEventBus eventBus)
    {
        eventBus.Subscribe<OrderPaidIntegrationEvent, OrderPaidIntegrationEventHandler>();
    }
}

public class OrderPaidIntegrationEventHandler : IIntegrationEventHandler<OrderPaidIntegrationEvent>
{
    public Task Handle(OrderPaidIntegrationEvent @event) => Task.CompletedTask;
}
