import java.net.http.HttpClient;
import org.example.jobs.JobConnection;

/** The same builder names on unrelated objects, with no AMQP 1.0 client import. */
public class HttpBuilders {
    void schedule(JobConnection connection) {
        connection.publisherBuilder().queue("nightly").build();
        connection.consumerBuilder().queue("nightly").build();
        connection.responderBuilder().requestQueue("nightly").build();
        String topic = "orders.created";
        System.out.println(topic);
    }
}
