import io.dapr.Topic;
import io.dapr.client.DaprClient;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;

public class DaprAndNats {
    void publish(DaprClient client, Connection nc) {
        client.publishEvent("orderpubsub", "orders", "x").block();
        nc.publish("updates.orders", "x".getBytes());
        Dispatcher dispatcher = nc.createDispatcher(msg -> { });
        dispatcher.subscribe("updates.*");
    }

    @Topic(name = "orders", pubsubName = "orderpubsub")
    public void onOrder(String body) { }
}
