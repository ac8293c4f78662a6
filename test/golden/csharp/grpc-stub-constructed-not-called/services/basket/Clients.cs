using Grpc.Net.Client;
using Shop.Catalog.V1;
using Shop.Pricing.V1;

namespace Basket;

public class Clients
{
    private readonly CatalogService.CatalogServiceClient _catalog;
    private readonly PricingService.PricingServiceClient _pricing;

    public Clients(GrpcChannel channel)
    {
        _catalog = new CatalogService.CatalogServiceClient(channel);
        // Constructed for later, never called here.
        _pricing = new PricingService.PricingServiceClient(channel);
    }

    public async Task<Product> Product(string id) =>
        await _catalog.GetProductAsync(new GetProductRequest { Id = id });
}
