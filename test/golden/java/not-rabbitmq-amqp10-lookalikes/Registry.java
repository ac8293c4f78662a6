import com.rabbitmq.client.amqp.Environment;
import org.example.plugins.PluginRegistry;

/** An AMQP 1.0 import, but the builders are on a plugin registry, not a connection. */
public class Registry {
    void register(PluginRegistry registry, Environment environment) {
        registry.publisherBuilder().queue("plugins").build();
        registry.consumerBuilder().queue("plugins").build();
        environment.connectionBuilder().uri("amqp://localhost").build();
    }
}
