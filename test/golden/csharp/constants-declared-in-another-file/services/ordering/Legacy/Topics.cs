namespace Shop.Legacy;

// A namesake of Shop.Messaging.Topics that no publisher imports: its constant is exported, never chosen.
public static class Topics
{
    public const string OrderCreated = "legacy.orders.created";
}
