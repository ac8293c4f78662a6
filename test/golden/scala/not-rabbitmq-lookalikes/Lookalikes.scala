import com.rabbitmq.client.ConnectionFactory

object Declare {
  private val QUEUE_NAME = "hello"

  def main(argv: Array[String]): Unit = {
    val channel = new ConnectionFactory().newConnection().createChannel()
    // Declared, bound, never used.
    channel.queueDeclare(QUEUE_NAME, false, false, false, null)
    channel.queueBind(QUEUE_NAME, "logs", "")
    val cache = new Cache()
    cache.publish("hello", "x")
  }
}
