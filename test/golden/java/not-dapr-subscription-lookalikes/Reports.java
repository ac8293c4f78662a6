package shop.reports;

import java.util.HashMap;
import java.util.Map;

public class Reports {
    // A builder with a `topic` outside any `/dapr/subscribe` handler: a report, not a subscription.
    public Report latest() {
        return Report.builder().topic("orders").title("Weekly").build();
    }

    // Subscription-shaped values nobody serves to the sidecar.
    Map<String, String> helper() {
        new DaprSubscription("pubsub", "orders", "/orders");
        Map<String, String> entry = new HashMap<>();
        entry.put("topic", "orders");
        return Map.of("pubsubname", "pubsub", "topic", "orders");
    }
}
