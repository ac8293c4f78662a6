import com.rabbitmq.client.amqp.Connection;
import com.rabbitmq.client.amqp.Management;

/** Declares topology only: no producer, no consumer. */
public class Declarations {
    void declare(Connection connection) {
        try (Management management = connection.management()) {
            management.exchange().name("billing").type(Management.ExchangeType.FANOUT).declare();
            management.queue("billing.audit").quorum().queue().declare();
            management.queue().name("billing.retry").classic().queue().declare();
            management.queuePurge("billing.audit");
        }
    }
}
