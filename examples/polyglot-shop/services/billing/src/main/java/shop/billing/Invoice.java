package shop.billing;

import java.time.Instant;
import java.util.UUID;

/** An issued invoice; amounts are whole currency units, as the demo ignores fractions. */
public record Invoice(
        String invoiceId,
        String orderId,
        String customerId,
        String currency,
        long netUnits,
        long vatUnits,
        long totalUnits,
        Instant issuedAt) {

    static Invoice issue(OrderGatewayClient.OrderView order, int vatRatePercent) {
        long gross = order.total().units();
        long net = Math.round(gross * 100.0 / (100 + vatRatePercent));
        return new Invoice(
                "INV-" + UUID.randomUUID(),
                order.id(),
                order.customerId(),
                order.total().currencyCode(),
                net,
                gross - net,
                gross,
                Instant.now());
    }
}
