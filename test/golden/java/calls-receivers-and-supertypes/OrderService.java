package com.shop.orders;

import com.shop.billing.Billing;
import com.shop.audit.AuditLog;
import static com.shop.util.Checks.require;
import java.util.List;

public class OrderService extends BaseService implements Service {
    private final OrderRepo repo;
    private final AuditLog audit = new AuditLog();
    private Notifier notifier;
    private static final Cache CACHE = Caches.create();

    public OrderService(OrderRepo repo) {
        super(repo);
        this.repo = repo;
    }

    public Order place(String id, Billing billing) {
        Order order = repo.find(id);
        require(order);
        billing.charge(order);
        this.audit.record(id);
        var mailer = new Mailer();
        mailer.send(order.email());
        Totals totals = Totals.of(order);
        Billing.defaults().apply(order);
        validate(order);
        this.log(id);
        super.log(id);
        notifier.notifyAll(List.of(order));
        order.lines().stream().map(line -> line.price()).forEach(this::add);
        Runnable task = new Runnable() {
            @Override
            public void run() {
                flush();
            }
        };
        for (Order pending : repo.pending()) {
            pending.cancel();
        }
        return new Order(id).withTotals(totals);
    }

    private void validate(Order order) {
        OrderRules.check(order);
        OrderService.CACHE.evict(order);
    }
}
