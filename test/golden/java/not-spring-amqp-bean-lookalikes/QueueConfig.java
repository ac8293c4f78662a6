package shop.jobs;

import java.util.ArrayDeque;
import java.util.Queue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Beans named like AMQP topology in a file without Spring AMQP: a work queue in memory, not a broker. */
@Configuration
public class QueueConfig {
    @Bean
    public Queue<String> jobs() {
        return new ArrayDeque<>();
    }

    @Bean
    public Topic orders() {
        return new Topic("shop.orders");
    }

    public void publish(Topic topic, String item) {
        topic.publish(topic.getName(), item);
    }
}
