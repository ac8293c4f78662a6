namespace Shop.Messaging;

/// Broker destinations, shared by the publishers and the subscribers of the service.
public static class Topics
{
    public const string OrderCreated = "orders.created";
    internal const string Prefix = "orders";
    public const string OrderCancelled = Prefix + ".cancelled";
    public static readonly string OrderShipped = "orders.shipped";
    public const int Partitions = 3;

    public static class Kafka
    {
        public const string Payments = "payments";
    }
}
