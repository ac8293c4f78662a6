package shop.billing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;
import shop.payment.v1.PaymentServiceGrpc;
import shop.payment.v1.RefundPaymentRequest;

/**
 * Invoicing saga: every paid order gets an invoice. When no valid invoice can be issued, the saga
 * compensates by refunding the payment, which also releases the order's stock.
 */
@Component
public class InvoicingSaga {

    static final String INVOICES_TOPIC = "invoices.issued";

    private static final Logger log = LoggerFactory.getLogger(InvoicingSaga.class);

    private final KafkaTemplate<String, String> kafkaTemplate;
    private final InvoiceRepository invoices;
    private final OrderGatewayClient orderGateway;
    private final ObjectMapper json;
    private final Set<String> blockedCustomers;
    private final int vatRatePercent;
    private final ManagedChannel paymentChannel;
    private final PaymentServiceGrpc.PaymentServiceBlockingStub paymentStub;

    public InvoicingSaga(
            KafkaTemplate<String, String> kafkaTemplate,
            InvoiceRepository invoices,
            OrderGatewayClient orderGateway,
            ObjectMapper json,
            @Value("${shop.invoicing.blocked-customers}") Set<String> blockedCustomers,
            @Value("${shop.invoicing.vat-rate-percent}") int vatRatePercent,
            @Value("${shop.payment.grpc-target}") String paymentTarget) {
        this.kafkaTemplate = kafkaTemplate;
        this.invoices = invoices;
        this.orderGateway = orderGateway;
        this.json = json;
        this.blockedCustomers = blockedCustomers;
        this.vatRatePercent = vatRatePercent;
        this.paymentChannel = ManagedChannelBuilder.forTarget(paymentTarget).usePlaintext().build();
        this.paymentStub = PaymentServiceGrpc.newBlockingStub(paymentChannel);
    }

    @KafkaListener(topics = "${shop.topics.orders}", groupId = "billing")
    public void onOrderCreated(String payload) throws IOException {
        JsonNode event = json.readTree(payload);
        String orderId = event.get("orderId").asText();
        String paymentId = event.get("paymentId").asText();

        OrderGatewayClient.OrderView order = orderGateway.fetchOrder(orderId);
        if (blockedCustomers.contains(order.customerId())) {
            compensate(orderId, paymentId, "customer is blocked for invoicing");
            return;
        }

        Invoice invoice = invoices.save(Invoice.issue(order, vatRatePercent));
        kafkaTemplate.send(INVOICES_TOPIC, invoice.orderId(), json.writeValueAsString(invoice));
        log.info("issued invoice {} for order {}", invoice.invoiceId(), orderId);
    }

    private void compensate(String orderId, String paymentId, String reason) {
        RefundPaymentRequest request = RefundPaymentRequest.newBuilder().setPaymentId(paymentId).setReason(reason).build();
        try {
            paymentStub.refundPayment(request);
            log.warn("order {} not invoiced ({}); payment {} refunded", orderId, reason, paymentId);
        } catch (StatusRuntimeException e) {
            log.error("refund of payment {} for order {} failed: {}", paymentId, orderId, e.getStatus());
            throw e;
        }
    }

    @PreDestroy
    void closeChannel() {
        paymentChannel.shutdown();
    }
}
