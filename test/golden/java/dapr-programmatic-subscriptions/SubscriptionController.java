package shop.orders;

import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class SubscriptionController {
    private static final String PAYMENTS = "payments";

    @GetMapping(path = "/dapr/subscribe", produces = "application/json")
    public DaprSubscription[] getSubscription() {
        DaprSubscription orders = DaprSubscription.builder()
                .pubSubName("orderpubsub")
                .topic("orders")
                .route("orders")
                .build();
        DaprSubscription refunds = new DaprSubscription("orderpubsub", PAYMENTS + ".refunds", "/refunds");
        return new DaprSubscription[] {orders, refunds};
    }

    // The subscription path with another verb is not what the sidecar reads: a route, no subscription.
    @PostMapping("/dapr/subscribe")
    public Map<String, String> notTheSidecar() {
        return Map.of("pubsubname", "pubsub", "topic", "ignored");
    }
}
