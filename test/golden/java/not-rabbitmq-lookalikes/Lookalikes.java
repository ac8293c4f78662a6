import com.example.cache.Cache;
import com.example.events.Channel;

public class Lookalikes {
    // Looks like a queue name, is only a string.
    private static final String QUEUE = "orders";

    void run(Cache cache, Channel channel) {
        // Same method names on objects of other libraries (no RabbitMQ import).
        cache.publish("orders", "x");
        channel.basicPublish("", QUEUE, null, new byte[0]);
        channel.basicConsume(QUEUE, true, null);
        System.out.println("topic_logs");
    }
}
