package shop.messaging;

public final class Topics {
    public static final String PREFIX = "shop.";
    public static final String ORDERS = "orders";
    public static final String PAYMENTS = PREFIX + "payments";
    public static final String SHIPMENTS = "shipments";

    private Topics() {}

    public static class Kafka {
        public static final String REFUNDS = Topics.PREFIX + "refunds";
    }
}
