using StackExchange.Redis;

namespace Shop.Notify;

// A Redis cache used as a cache; an application's own Publish of an event object; no other broker imported.
public class CartCache
{
    private readonly IDatabase _db;
    private readonly IMessagePublisher _publisher;

    public async Task Save(string id, string json)
    {
        await _db.StringSetAsync("cart:" + id, json);
        await _publisher.Publish(new CartSaved(id));
        var sender = _factory.CreateSender("order-emails");
        _connection.SubscribeAsync("orders.>", handler);
    }
}
