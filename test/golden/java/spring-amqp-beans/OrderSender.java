package shop.messaging;

import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;

public class OrderSender {
    @Autowired
    private RabbitTemplate template;

    @Autowired
    private TopicExchange orders;

    private final DirectExchange payments;

    private final TopicExchange local = new TopicExchange("shop.local");

    public OrderSender(DirectExchange payments) {
        this.payments = payments;
    }

    public void placed(String order) {
        template.convertAndSend(orders.getName(), "order.placed", order);
    }

    public void refund(String payment) {
        template.convertAndSend(payments.getName(), "refund", payment);
    }

    public void anywhere(TopicExchange target, String event) {
        template.convertAndSend(target.getName(), "any.event", event);
    }

    public void local(String event) {
        template.convertAndSend(local.getName(), "local.event", event);
    }
}
