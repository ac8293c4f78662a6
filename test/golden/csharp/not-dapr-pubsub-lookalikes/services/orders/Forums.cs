namespace Shop.Orders;

// Objects with a topic member outside Dapr's subscription route are no subscriptions.
public static class Forums
{
    public static object[] Subscribe() => new object[] { new { topic = "orders", route = "/orders" } };
}
