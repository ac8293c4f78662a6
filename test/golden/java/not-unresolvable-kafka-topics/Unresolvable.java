
class C {
    static final String A = B;
    static final String B = A;
    private final KafkaTemplate<String, String> kafkaTemplate;
    @KafkaListener(topicPattern = "orders-.*")
    void any(String s) {}
    @KafkaListener(topics = "#{'${shop.topics.all}'.split(',')}")
    void spel(String s) {}
    void send(String topic) {
        kafkaTemplate.send(A, "x");
        kafkaTemplate.send(topic, "x");
        kafkaTemplate.send("retry-" + topic, "x");
    }
}