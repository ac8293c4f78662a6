import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;

public class RpcClient {
    private Channel channel;
    private String requestQueueName = "rpc_queue";
    private String replyQueueName;

    RpcClient(Channel channel) throws Exception {
        this.channel = channel;
        this.replyQueueName = channel.queueDeclare().getQueue();
    }

    String call(String message) throws Exception {
        AMQP.BasicProperties props = new AMQP.BasicProperties.Builder().replyTo(replyQueueName).build();
        channel.basicPublish("", requestQueueName, props, message.getBytes());
        // The reply queue is named by the broker and bound to nothing: no fact.
        channel.basicConsume(replyQueueName, true, (tag, delivery) -> { }, tag -> { });
        return "";
    }

    void serve(AMQP.BasicProperties properties, byte[] response) throws Exception {
        // A reply to whatever queue the request named: no fixed destination.
        channel.basicPublish("", properties.getReplyTo(), null, response);
    }
}
