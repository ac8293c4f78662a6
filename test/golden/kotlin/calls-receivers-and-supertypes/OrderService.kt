package com.shop.orders

import com.shop.billing.Billing
import com.shop.billing.chargeAll as charge
import com.shop.audit.AuditLog
import com.shop.util.require
import com.shop.payment.PaymentGrpcKt

interface OrderRepo : Repo<Order> {
    fun find(id: String): Order

    fun findOrFail(id: String): Order = find(id)
}

class OrderService(private val repo: OrderRepo, plain: Int) : BaseService(plain), Service {
    private val audit: AuditLog = AuditLog()
    private val mailer = Mailer()
    private val payments = PaymentGrpcKt.PaymentStub(channel)

    fun place(id: String, billing: Billing): Order {
        val order = repo.find(id)
        require(order)
        billing.charge(order)
        this.audit.record(id)
        val totals = Totals.of(order)
        Billing.defaults().apply(order)
        charge(listOf(order))
        validate(order)
        this.log(id)
        super.log(id)
        mailer.send(order.email())
        order.lines().map { line -> line.price() }.forEach(::add)
        audit.apply { flush() }
        fun local() = order.cancel()
        local()
        return Order(id).withTotals(totals)
    }

    private fun validate(order: Order) {
        OrderRules.check(order)
        payments.authorize(order)
    }
}

fun main() {
    val service = OrderService(InMemoryRepo(), 1)
    service.place("1", Billing())
}

val started = main()
