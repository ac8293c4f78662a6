package shop.billing;

import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestTemplate;

/** Reads order details from the order gateway's HTTP API. */
@Component
public class OrderGatewayClient {

    public record MoneyView(String currencyCode, long units, int nanos) {}

    public record OrderView(String id, String customerId, MoneyView total) {}

    private final RestTemplate restTemplate;
    private final String orderGatewayUrl;

    public OrderGatewayClient(RestTemplateBuilder builder, @Value("${ORDER_GATEWAY_URL}") String orderGatewayUrl) {
        this.restTemplate = builder.setConnectTimeout(Duration.ofSeconds(2)).build();
        this.orderGatewayUrl = orderGatewayUrl;
    }

    public OrderView fetchOrder(String orderId) {
        OrderView order = restTemplate.getForObject(orderGatewayUrl + "/orders/{id}", OrderView.class, orderId);
        if (order == null) {
            throw new IllegalStateException("order " + orderId + " not found at the order gateway");
        }
        return order;
    }
}
