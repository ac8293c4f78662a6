import com.rabbitmq.client._

object EmitLogTopic {
  private val EXCHANGE_NAME = "topic_logs"

  def main(argv: Array[String]): Unit = {
    val channel = new ConnectionFactory().newConnection().createChannel()
    channel.exchangeDeclare(EXCHANGE_NAME, BuiltinExchangeType.TOPIC)
    channel.basicPublish(EXCHANGE_NAME, "kern.critical", null, "x".getBytes("UTF-8"))
    channel.basicPublish("", "task_" + "queue", null, "x".getBytes("UTF-8"))
  }
}

object ReceiveLogsTopic {
  private val EXCHANGE = "topic_logs"

  def main(argv: Array[String]): Unit = {
    val channel = new ConnectionFactory().newConnection().createChannel()
    val queueName = channel.queueDeclare().getQueue
    for (bindingKey <- argv) channel.queueBind(queueName, EXCHANGE, bindingKey)
    channel.basicConsume(queueName, true, null, null)
    val replyQueue = channel.queueDeclare().getQueue
    channel.basicConsume(replyQueue, true, null, null)
  }
}
