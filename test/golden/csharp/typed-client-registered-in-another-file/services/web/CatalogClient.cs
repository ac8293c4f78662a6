using System.Net.Http;
using System.Net.Http.Json;

public class CatalogClient
{
    private readonly HttpClient _http;

    public CatalogClient(HttpClient http)
    {
        _http = http;
    }

    public Task<string> Items() => _http.GetStringAsync("api/items");

    public Task<HttpResponseMessage> Add(Item item) => _http.PostAsJsonAsync("api/items", item);
}

public class BasketClient
{
    private readonly IHttpClientFactory _factory;

    public BasketClient(IHttpClientFactory factory) => _factory = factory;

    public Task<string> Get(string id) => _factory.CreateClient("basket").GetStringAsync($"basket/{id}");
}
