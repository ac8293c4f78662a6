import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.messaging.simp.SimpMessagingTemplate;

public class WrongReceivers {
    private SimpMessagingTemplate template;
    private RestTemplate restTemplate;

    // Spring AMQP is imported, but these receivers are of other types.
    void run() {
        template.convertAndSend("/topic/greetings", "hi");
        restTemplate.send("orders", "x");
    }
}
