using MediatR;

namespace Shop.Ordering;

// MediatR notifications and an unrelated Publish/Subscribe: no event bus or MassTransit imported.
public class Notifier : INotificationHandler<OrderStarted>, IConsumer<OrderStarted>
{
    private readonly IMediator _mediator;
    private readonly INotificationHub _hub;

    public async Task Handle(OrderStarted notification, CancellationToken token)
    {
        await _mediator.Publish(new OrderShipped());
        _hub.Publish(new OrderShipped());
        _hub.Subscribe<OrderShipped>();
    }
}
