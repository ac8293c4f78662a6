package shop.shipping;

import static shop.messaging.Events.*;

import io.dapr.client.DaprClient;

public class ShipmentActivity {
    private final DaprClient daprClient;

    ShipmentActivity(DaprClient daprClient) {
        this.daprClient = daprClient;
    }

    void register(Object order) {
        daprClient.publishEvent(PUBSUB, REGISTRATION, order).block();
    }
}
