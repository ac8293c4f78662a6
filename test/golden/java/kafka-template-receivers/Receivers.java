
class C extends BaseProducer {
    private final AuditClient kafkaTemplate;
    void a(KafkaTemplate<String, String> template) {
        template.send("typed-topic", "x");
        kafkaTemplate.send("not-kafka-topic", "x");
        this.inheritedKafkaTemplate.send("inherited-topic", "x");
    }
}