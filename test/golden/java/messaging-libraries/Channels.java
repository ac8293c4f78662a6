import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Outgoing;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.context.annotation.Bean;

public class Channels {
    @Channel("invoices")
    Emitter<String> invoices;
    private StreamBridge streamBridge;

    @Incoming("orders")
    @Outgoing("enriched")
    public String enrich(String order) { return order; }

    void bridge(String body) { streamBridge.send("audit-out-0", body); }

    @Bean
    public Consumer<String> shipments() { return s -> { }; }

    @Bean
    public Function<String, String> uppercase() { return String::toUpperCase; }

    @Bean
    public Supplier<String> ticks() { return () -> "t"; }
}
