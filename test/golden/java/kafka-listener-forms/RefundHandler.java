
@KafkaListener(topics = Topics.REFUNDS)
class RefundHandler {
    @KafkaHandler
    void on(String s) {}

    @KafkaListener(topicPartitions = {@TopicPartition(topic = "ledger-topic", partitions = "0")})
    void ledger(String s) {}

    @StreamListener(Sink.INPUT)
    void unknownBinding(String s) {}

    @StreamListener("orders-in")
    void binding(String s) {}
}
class Topics {
    static final String REFUNDS = "refunds-topic";
}