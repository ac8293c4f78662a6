package shop.messaging;

import org.springframework.amqp.rabbit.annotation.RabbitListener;

public class OrderListeners {
    @RabbitListener(queues = "#{audit.name}")
    public void audit(String order) {}

    @RabbitListener(queues = "#{@shipping.getName()}")
    public void ship(String order) {}

    @RabbitListener(queues = "#{T(java.util.UUID).randomUUID().toString()}")
    public void other(String order) {}
}
