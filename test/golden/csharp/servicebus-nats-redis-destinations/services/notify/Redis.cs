using StackExchange.Redis;

namespace Shop.Notify;

public class RedisWorker
{
    public async Task Run(IConnectionMultiplexer redis)
    {
        ISubscriber subscriber = redis.GetSubscriber();
        await subscriber.PublishAsync(RedisChannel.Literal("cart-updates"), "{}");
        await subscriber.SubscribeAsync(new RedisChannel("cart-*", RedisChannel.PatternMode.Pattern), (channel, value) => { });
        subscriber.Subscribe("cart-cleared", (channel, value) => { });
    }
}
