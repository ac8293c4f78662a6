using Dapr;
using Microsoft.AspNetCore.Mvc;

namespace Shop.Messaging.Handlers;

[ApiController]
public class ShippingController : ControllerBase
{
    [Topic("pubsub", Topics.OrderShipped)]
    [HttpPost("shipped")]
    public IActionResult Shipped() => Ok();
}
