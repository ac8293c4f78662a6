package shop.orders

import org.springframework.kafka.annotation.KafkaListener
import org.springframework.kafka.core.KafkaTemplate
import shop.messaging.AUDIT
import shop.messaging.Orders
import shop.messaging.Topics as T
import shop.events.Events

class OrderPublisher(private val kafkaTemplate: KafkaTemplate<String, String>) {
    fun publish(order: String) {
        kafkaTemplate.send(T.ORDERS, order)
        kafkaTemplate.send(AUDIT, order)
        kafkaTemplate.send(Orders.Companion.REFUNDS, order)
        kafkaTemplate.send(shop.messaging.Topics.SHIPMENTS, order)
        kafkaTemplate.send(Events.CREATED, order)
    }

    @KafkaListener(topics = [T.PAYMENTS, "audit"])
    fun audit(order: String) {}
}
