import org.springframework.amqp.core.AmqpTemplate;
import org.springframework.amqp.rabbit.annotation.Exchange;
import org.springframework.amqp.rabbit.annotation.Queue;
import org.springframework.amqp.rabbit.annotation.QueueBinding;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.beans.factory.annotation.Value;

@RabbitListener(queues = "hello")
public class SpringAmqp {
    private final AmqpTemplate amqpTemplate;
    @Value("${app.exchange}")
    private String exchange;

    SpringAmqp(AmqpTemplate amqpTemplate) { this.amqpTemplate = amqpTemplate; }

    void send(String body) {
        amqpTemplate.convertAndSend(exchange, "order.created", body);
        amqpTemplate.convertAndSend("", "task_queue", body);
    }

    @RabbitListener(bindings = @QueueBinding(
            value = @Queue("billing"),
            exchange = @Exchange(value = "orders", type = "topic"),
            key = {"order.created", "order.paid"}))
    public void onOrder(String body) { }

    @RabbitListener(queuesToDeclare = @Queue("audit"))
    public void onAudit(String body) { }
}
