using Microsoft.AspNetCore.Mvc;

namespace Shop.Shipping;

[ApiController]
public class SubscriptionsController : ControllerBase
{
    [HttpGet("dapr/subscribe")]
    public IActionResult Subscriptions() =>
        Ok(new[] { new DaprSubscription { PubsubName = "orderpubsub", Topic = "orders-shipped", Route = "shipped" } });
}

public class DaprSubscription
{
    public string PubsubName { get; set; } = "";
    public string Topic { get; set; } = "";
    public string Route { get; set; } = "";
}
