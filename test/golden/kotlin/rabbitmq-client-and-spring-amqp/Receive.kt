import com.rabbitmq.client.BuiltinExchangeType
import com.rabbitmq.client.ConnectionFactory

class Receive {
    companion object {
        const val EXCHANGE_NAME = "direct_logs"
    }
}

fun main(argv: Array<String>) {
    val channel = ConnectionFactory().newConnection().createChannel()
    channel.exchangeDeclare(Receive.EXCHANGE_NAME, BuiltinExchangeType.DIRECT)
    val queueName = channel.queueDeclare().queue
    channel.queueBind(queueName, Receive.EXCHANGE_NAME, "error")
    channel.basicConsume(queueName, true, null)
    channel.basicPublish(Receive.EXCHANGE_NAME, "info", null, "x".toByteArray())
}
