import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;

public class DeclareOnly {
    // Declaring and binding alone neither produce nor consume.
    void setup(Connection connection, MessageCache cache) throws Exception {
        Channel channel = connection.createChannel();
        channel.exchangeDeclare("logs", "fanout");
        channel.queueDeclare("unused", true, false, false, null);
        channel.queueBind("unused", "logs", "");
        cache.basicPublish("logs", "", null, null);
    }
}
