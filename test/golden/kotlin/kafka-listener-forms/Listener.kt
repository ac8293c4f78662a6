
object Topics {
    const val REFUNDS = "refunds-topic"
}
class Listener(private val kafkaTemplate: KafkaTemplate<String, String>) {
    @KafkaListener(topics = arrayOf(Topics.REFUNDS, "ledger-topic"))
    fun a(s: String) {}
    @StreamListener("orders-in")
    fun b(s: String) {}
    @KafkaListener(topicPattern = "orders-.*")
    fun c(s: String) {}
    @KafkaListener(topics = [ExternalTopics.ORDERS])
    fun d(topic: String) {
        kafkaTemplate.send(topic, "x")
        kafkaTemplate.send("${'$'}{topic}", "x")
    }
}