import java.util.function.Consumer;
import java.util.stream.Stream;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import com.example.annotations.Incoming;
import com.example.annotations.Topic;

public class Lookalikes {
    private ApplicationEventPublisher publisher;

    // Custom annotations with messaging names, no messaging library imported.
    @Topic(name = "orders", pubsubName = "pubsub")
    public void onOrder(String body) { }

    @Incoming("orders")
    public void onIncoming(String body) { }

    // A Consumer bean in a file with no Spring Cloud Stream in sight.
    @Bean
    public Consumer<String> logger() { return s -> { }; }

    void run(Client client, Connection connection, Builder builder) {
        publisher.publishEvent(new Object());
        client.publishEvent("pubsub", "orders", "x");
        connection.publish("updates", "x".getBytes());
        builder.stream("clicks");
        Stream.of("a").map(String::trim).toList();
    }
}
