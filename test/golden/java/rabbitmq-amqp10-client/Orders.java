import com.rabbitmq.client.amqp.Connection;
import com.rabbitmq.client.amqp.Consumer;
import com.rabbitmq.client.amqp.Management;
import com.rabbitmq.client.amqp.Publisher;
import com.rabbitmq.client.amqp.Requester;
import com.rabbitmq.client.amqp.Responder;

public class Orders {
    private static final String EXCHANGE = "orders";
    private static final String AUDIT_QUEUE = "orders.audit";

    void declare(Management management) {
        management.exchange().name(EXCHANGE).type(Management.ExchangeType.TOPIC).declare();
        management.queue(AUDIT_QUEUE).quorum().queue().declare();
        management.binding().sourceExchange(EXCHANGE).destinationQueue(AUDIT_QUEUE).key("order.*").bind();
    }

    Publisher toExchange(Connection connection) {
        return connection.publisherBuilder().exchange(EXCHANGE).key("order.created").build();
    }

    Publisher toQueue(Connection connection) {
        return connection.publisherBuilder().queue("invoices").build();
    }

    Publisher perMessage(Connection connection) {
        // No address on the builder: each message carries its own; nothing fixed to report.
        return connection.publisherBuilder().build();
    }

    Publisher toParameter(Connection connection, String queue) {
        return connection.publisherBuilder().queue(queue).build();
    }

    Consumer audit(Connection connection) {
        return connection.consumerBuilder()
                .queue(AUDIT_QUEUE)
                .messageHandler((ctx, message) -> ctx.accept())
                .build();
    }

    Consumer invoices(Connection connection) {
        return connection.consumerBuilder().queue("invoices").build();
    }

    Consumer temporary(Connection connection, Management management) {
        // A server-named queue bound to the exchange: a consumer of the exchange, with no queue name.
        String queueName;
        Management.QueueInfo info = management.queue().exclusive(true).autoDelete(true).declare();
        queueName = info.name();
        management.binding().sourceExchange(EXCHANGE).destinationQueue(queueName).key("order.cancelled").bind();
        return connection.consumerBuilder().queue(queueName).build();
    }

    Consumer replies(Connection connection, Management management) {
        // A server-named queue bound to nothing: an RPC reply queue, no fact.
        String replyQueue = management.queue().exclusive(true).declare().name();
        return connection.consumerBuilder().queue(replyQueue).build();
    }

    Requester prices(Connection connection) {
        return connection.requesterBuilder().requestAddress().queue("price_requests").requester().build();
    }

    Responder priceServer(Connection connection) {
        return connection.responderBuilder()
                .requestQueue("price_requests")
                .handler((ctx, request) -> ctx.message(new byte[0]))
                .build();
    }
}
