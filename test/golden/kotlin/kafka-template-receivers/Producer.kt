
class Producer(private val kafkaTemplate: AuditClient, private val template: KafkaTemplate<String, String>) : Base() {
    fun a() {
        template.send("typed-topic", "x")
        kafkaTemplate.send("not-kafka-topic", "x")
        inheritedKafkaTemplate.send("inherited-topic", "x")
    }
}