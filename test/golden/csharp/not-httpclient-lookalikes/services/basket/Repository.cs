using System.Net.Http;

namespace Basket;

// Methods named like HttpClient's, on things that are no HttpClient.
public class BasketService
{
    private readonly IBasketRepository _repository;
    private readonly ICache _cache;

    public BasketService(IBasketRepository repository, ICache cache, IConfiguration configuration)
    {
        _repository = repository;
        _cache = cache;
        var url = configuration["Services:Catalog"];
    }

    public async Task<Basket> Load(string id)
    {
        var basket = await _repository.GetAsync(id);
        await _cache.PostAsync("/baskets/" + id, basket);
        await _repository.DeleteAsync($"/baskets/{id}");
        var message = "client.GetAsync(\"/orders\")";
        return basket;
    }
}

public static class Registration
{
    // A registration alone sends nothing.
    public static void Add(IServiceCollection services) =>
        services.AddHttpClient("catalog", c => c.BaseAddress = new Uri("http://catalog"));
}
