import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;

public class Emit {
    private static final String EXCHANGE = "direct_logs";
    private String workQueue = "task_queue";

    void publish(Channel channel, String severity, byte[] body) throws Exception {
        channel.exchangeDeclare(EXCHANGE, "direct");
        // Named exchange, routing key known.
        channel.basicPublish(EXCHANGE, "error", null, body);
        // Named exchange, routing key from a parameter: the exchange alone.
        channel.basicPublish(EXCHANGE, severity, null, body);
        // Default exchange: the routing key is the queue.
        channel.basicPublish("", workQueue, null, body);
        // Destination from the environment.
        channel.basicPublish(System.getenv("AUDIT_EXCHANGE"), "audit", null, body);
        // Destination nobody can resolve here.
        channel.basicPublish(exchangeFor(severity), "x", null, body);
    }

    String exchangeFor(String s) { return s; }
}
