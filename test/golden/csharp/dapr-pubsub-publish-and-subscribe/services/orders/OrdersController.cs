using Dapr;
using Microsoft.AspNetCore.Mvc;

namespace Shop.Orders;

[ApiController]
public class OrdersController : ControllerBase
{
    [Topic("orderpubsub", "orders")]
    [HttpPost("orders")]
    public IActionResult Placed(Order order) => Ok();
}
