using Refit;

namespace Basket.Clients;

public interface IOrdersApi
{
    [Get("/orders/{id}")]
    Task<Order> GetOrder(string id);

    [Post("/orders")]
    Task<Order> CreateOrder([Body] NewOrder order);

    [Delete("/orders/{id}?force=true")]
    Task CancelOrder(string id);
}

public interface IShippingApi
{
    [Get("/shipments/{orderId}")]
    Task<Shipment> Track(string orderId);
}

public static class ClientRegistration
{
    public static IServiceCollection AddClients(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddRefitClient<IOrdersApi>()
            .ConfigureHttpClient(c => c.BaseAddress = new Uri(configuration["OrdersApi:BaseUrl"]));
        var shipping = RestService.For<IShippingApi>("http://shipping:5000/api");
        services.AddSingleton(shipping);
        return services;
    }
}
