import com.rabbitmq.client.*;

public class Receive {
    private static final String EXCHANGE_NAME = "topic_logs";

    public static void main(String[] argv) throws Exception {
        Channel channel = new ConnectionFactory().newConnection().createChannel();
        channel.exchangeDeclare(EXCHANGE_NAME, BuiltinExchangeType.TOPIC);
        String queueName = channel.queueDeclare().getQueue();
        channel.queueBind(queueName, EXCHANGE_NAME, "*.critical");
        channel.queueBind(queueName, EXCHANGE_NAME, "kern.*");
        channel.basicConsume(queueName, true, (tag, delivery) -> { }, tag -> { });

        // A named queue bound to an exchange with keys from argv: the exchange, the queue, no key.
        channel.queueDeclare("audit", true, false, false, null);
        for (String key : argv) channel.queueBind("audit", "audit_exchange", key);
        channel.basicConsume("audit", false, (tag, delivery) -> { }, tag -> { });

        // A queue bound to nothing is consumed by name.
        channel.queueDeclare("hello", false, false, false, null);
        channel.basicConsume("hello", true, (tag, delivery) -> { }, tag -> { });
    }
}
