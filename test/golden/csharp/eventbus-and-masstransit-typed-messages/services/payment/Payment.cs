using MassTransit;

namespace Shop.Payment;

public record PaymentRequested(int OrderId);
public record PaymentCompleted(int OrderId);

public class PaymentRequestedConsumer : IConsumer<PaymentRequested>
{
    public async Task Consume(ConsumeContext<PaymentRequested> context)
    {
        await context.Publish(new PaymentCompleted(context.Message.OrderId));
        await context.Publish<IPaymentAudited>(new { context.Message.OrderId });
        var endpoint = await context.GetSendEndpoint(new Uri("queue:refunds"));
        await endpoint.Send(new RefundRequested(context.Message.OrderId));
    }
}

public static class Bus
{
    public static void Configure(IBusRegistrationConfigurator x)
    {
        x.AddConsumer<PaymentRequestedConsumer>();
        x.UsingRabbitMq((context, cfg) =>
        {
            cfg.ReceiveEndpoint("payment-requests", e => e.ConfigureConsumer<PaymentRequestedConsumer>(context));
        });
    }
}
