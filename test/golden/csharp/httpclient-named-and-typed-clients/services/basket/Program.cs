using System.Net.Http.Json;

var builder = WebApplication.CreateBuilder(args);

builder.Services.AddHttpClient("catalog", client =>
{
    client.BaseAddress = new Uri(builder.Configuration["Services:Catalog"]!);
    client.Timeout = TimeSpan.FromSeconds(5);
});
builder.Services.AddHttpClient<IPricingClient, PricingClient>(c =>
    c.BaseAddress = new Uri(Environment.GetEnvironmentVariable("PRICING_URL") ?? "http://pricing:8080"));

var app = builder.Build();
app.Run();

public class CatalogReader
{
    private readonly IHttpClientFactory _factory;

    public CatalogReader(IHttpClientFactory factory) => _factory = factory;

    public async Task<Item?> Item(string id)
    {
        var client = _factory.CreateClient("catalog");
        return await client.GetFromJsonAsync<Item>($"api/items/{id}");
    }
}

public class PricingClient : IPricingClient
{
    private readonly HttpClient _http;
    private readonly string _rulesPath;

    public PricingClient(HttpClient http, IConfiguration configuration)
    {
        _http = http;
        _rulesPath = configuration.GetValue<string>("Pricing:RulesUrl", "http://rules:8080/rules");
    }

    public Task<HttpResponseMessage> Quote(string sku, int quantity) =>
        _http.PostAsJsonAsync(string.Format("/quotes/{0}?qty={1}", sku, quantity), new { });

    public Task<HttpResponseMessage> Rules() => _http.GetAsync(_rulesPath);

    public Task<HttpResponseMessage> Forward(string url) => _http.GetAsync(url);
}

public class AuditClient
{
    private static readonly string AuditBase = Environment.GetEnvironmentVariable("AUDIT_URL");
    private readonly HttpClient _http = new HttpClient();

    public Task Send(string kind) =>
        _http.SendAsync(new HttpRequestMessage { Method = HttpMethod.Put, RequestUri = new Uri($"{AuditBase}/events/{kind}") });
}
