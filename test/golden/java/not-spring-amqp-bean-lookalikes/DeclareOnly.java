package shop.messaging;

import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.core.RabbitAdmin;

/** Declares topology through the admin: a declaration is neither a producer nor a consumer. */
public class DeclareOnly {
    void declare(RabbitAdmin admin) {
        admin.declareQueue(new Queue("orders.audit"));
        admin.declareExchange(new TopicExchange("shop.orders"));
        TopicExchange exchange = new TopicExchange("shop.orders");
        String name = exchange.getName();
    }
}
