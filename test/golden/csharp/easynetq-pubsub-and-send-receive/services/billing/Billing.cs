using EasyNetQ;
using EasyNetQ.AutoSubscribe;

namespace Shop.Billing;

public record InvoiceCreated(int Id);
public record ChargeCard(int Id);

public class BillingWorker
{
    private readonly IBus _bus;
    private readonly HttpClient _http = new HttpClient();

    public async Task Run()
    {
        await _bus.PubSub.PublishAsync(new InvoiceCreated(1));
        await _bus.PubSub.SubscribeAsync<InvoiceCreated>("billing", message => Task.CompletedTask);
        await _bus.SendReceive.SendAsync("charges", new ChargeCard(1));
        await _bus.SendReceive.ReceiveAsync<ChargeCard>("charges", message => Task.CompletedTask);
        // An HTTP request in the same file is no message.
        await _http.SendAsync(new HttpRequestMessage(HttpMethod.Get, "http://ledger/health"));
    }
}

public class InvoiceAuditor : IConsumeAsync<InvoiceCreated>
{
    public Task ConsumeAsync(InvoiceCreated message, CancellationToken cancellationToken) => Task.CompletedTask;
}
