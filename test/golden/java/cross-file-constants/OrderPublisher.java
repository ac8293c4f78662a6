package shop.orders;

import static shop.messaging.Topics.PAYMENTS;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import shop.messaging.Topics;

public class OrderPublisher {
    private final KafkaTemplate<String, String> kafkaTemplate;

    OrderPublisher(KafkaTemplate<String, String> kafkaTemplate) {
        this.kafkaTemplate = kafkaTemplate;
    }

    void publish(String order) {
        kafkaTemplate.send(Topics.ORDERS, order);
        kafkaTemplate.send(PAYMENTS, order);
        kafkaTemplate.send(Topics.Kafka.REFUNDS, order);
        kafkaTemplate.send(shop.messaging.Topics.SHIPMENTS, order);
    }

    @KafkaListener(topics = {Topics.ORDERS, "audit"})
    void audit(String order) {}
}
