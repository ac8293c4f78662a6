using MediatR;

namespace Shop.Ordering;

// MediatR notifications and an unrelated Publish: no event bus or MassTransit imported.
public class Notifier : INotificationHandler<OrderStarted>, IConsumer<OrderStarted>
{
    private readonly IMediator _mediator;
    private readonly IEventBus _eventBus;

    public async Task Handle(OrderStarted notification, CancellationToken token)
    {
        await _mediator.Publish(new OrderShipped());
        _eventBus.Publish(new OrderShipped());
        _eventBus.Subscribe<OrderShipped, OrderShippedHandler>();
    }
}
