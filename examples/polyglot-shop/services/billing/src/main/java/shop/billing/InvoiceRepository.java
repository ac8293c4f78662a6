package shop.billing;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Repository;

/** Invoices by order id. In memory for the demo; production uses the billing database. */
@Repository
public class InvoiceRepository {

    private final Map<String, Invoice> byOrderId = new ConcurrentHashMap<>();

    public Invoice save(Invoice invoice) {
        Invoice existing = byOrderId.putIfAbsent(invoice.orderId(), invoice);
        return existing != null ? existing : invoice;
    }

    public Optional<Invoice> findByOrderId(String orderId) {
        return Optional.ofNullable(byOrderId.get(orderId));
    }

    public int count() {
        return byOrderId.size();
    }
}
