import org.springframework.amqp.rabbit.annotation.Exchange
import org.springframework.amqp.rabbit.annotation.Queue
import org.springframework.amqp.rabbit.annotation.QueueBinding
import org.springframework.amqp.rabbit.annotation.RabbitListener
import org.springframework.amqp.rabbit.core.RabbitTemplate

class Orders(private val rabbitTemplate: RabbitTemplate) {
    fun place(order: String) {
        rabbitTemplate.convertAndSend("orders.exchange", "order.created", order)
        rabbitTemplate.convertAndSend("audit-queue", order)
    }

    @RabbitListener(queues = ["payments"])
    fun onPayment(body: String) {}

    @RabbitListener(
        bindings = [QueueBinding(value = Queue("shipping"), exchange = Exchange("orders.exchange"), key = ["order.*"])],
    )
    fun onOrder(body: String) {}

    @RabbitListener(queues = ["#{anonymousQueue.name}"])
    fun onBroadcast(body: String) {}
}
