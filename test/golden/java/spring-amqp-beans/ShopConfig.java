package shop.messaging;

import org.springframework.amqp.core.AnonymousQueue;
import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.ExchangeBuilder;
import org.springframework.amqp.core.FanoutExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
public class ShopConfig {
    static final String ORDERS = "shop.orders";

    @Bean
    public TopicExchange orders() {
        return new TopicExchange(ORDERS);
    }

    @Bean("notifications")
    public FanoutExchange notificationExchange() {
        return ExchangeBuilder.fanoutExchange("shop.notifications").durable(true).build();
    }

    @Bean
    public DirectExchange payments() {
        return new DirectExchange("shop.payments");
    }

    @Bean
    public Queue audit() {
        return new Queue("orders.audit", true);
    }

    @Bean
    public Queue shipping() {
        return QueueBuilder.durable("orders.shipping").quorum().build();
    }

    @Bean
    public Queue mailer() {
        return new AnonymousQueue();
    }

    @Bean
    public Binding auditAll(Queue audit, TopicExchange orders) {
        return BindingBuilder.bind(audit).to(orders).with("order.#");
    }

    @Bean
    public Binding shippingPaid(Queue shipping, TopicExchange orders) {
        return BindingBuilder.bind(shipping).to(orders).with("order.paid");
    }

    @Bean
    public Binding mailerAll(Queue mailer, FanoutExchange notifications) {
        // An anonymous queue has no name another file could consume by: no binding property.
        return BindingBuilder.bind(mailer).to(notifications);
    }

    @Bean
    public Binding refunds() {
        return BindingBuilder.bind(new Queue("payments.refunds")).to(payments()).with("refund");
    }

    @Bean
    public Binding legacy() {
        return new Binding("payments.legacy", Binding.DestinationType.QUEUE, "shop.payments", "", null);
    }
}
