import com.example.bus.Channel
import com.example.web.Template

class RabbitListener(val queues: Array<String>)

class Lookalikes(private val template: Template, private val channel: Channel) {
    // No RabbitMQ or Spring AMQP import: same names, other libraries.
    fun run() {
        template.convertAndSend("orders.exchange", "key", "x")
        channel.basicPublish("", "hello", null, ByteArray(0))
        channel.basicConsume("hello", true, null)
    }

    @RabbitListener(queues = ["payments"])
    fun onPayment(body: String) {}
}
