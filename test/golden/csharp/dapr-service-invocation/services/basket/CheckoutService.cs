using Dapr.Client;

namespace Basket;

public class CheckoutService
{
    private const string OrdersApp = "orders";
    private readonly DaprClient _dapr;
    private readonly HttpClient _payments = DaprClient.CreateInvokeHttpClient("payments");

    public CheckoutService(DaprClient dapr) => _dapr = dapr;

    public async Task Checkout(Basket basket)
    {
        await _dapr.InvokeMethodAsync(OrdersApp, "orders", basket);
        var order = await _dapr.InvokeMethodAsync<Order>(HttpMethod.Get, OrdersApp, $"orders/{basket.Id}");
        var request = _dapr.CreateInvokeMethodRequest(HttpMethod.Delete, "inventory", "reservations/" + basket.Id);
        await _dapr.InvokeMethodWithResponseAsync(request);
        await _payments.PostAsJsonAsync("/charges", order);
    }

    public async Task Legacy()
    {
        using var client = new DaprClientBuilder().Build();
        await client.InvokeMethodAsync<string>(HttpMethod.Get, "catalog", "items");
    }
}
