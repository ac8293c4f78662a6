package shop.notification

import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.module.kotlin.readValue
import org.springframework.kafka.annotation.KafkaListener
import org.springframework.stereotype.Component

const val STOCK_RESERVED_TOPIC = "stock.reserved"
const val ORDERS_CANCELLED_TOPIC = "orders.cancelled"

data class StockReserved(val orderId: String, val customerId: String, val warehouse: String)

data class OrderCancelled(val orderId: String, val customerId: String, val reason: String?)

@Component
class NotificationListener(
    private val notifications: NotificationLog,
    private val billing: BillingClient,
    private val json: ObjectMapper,
) {

    @KafkaListener(topics = [STOCK_RESERVED_TOPIC], groupId = "notification")
    fun onStockReserved(payload: String) {
        val event = json.readValue<StockReserved>(payload)
        val invoice = billing.invoiceFor(event.orderId)
        val amount = invoice?.let { " Invoice ${it.invoiceId}: ${it.totalUnits} ${it.currency}." } ?: ""
        notifications.send(
            Notification(
                userId = event.customerId,
                orderId = event.orderId,
                subject = "Your order ${event.orderId} is being packed",
                body = "Good news: everything is reserved at ${event.warehouse}.$amount",
            ),
        )
    }

    @KafkaListener(topics = [ORDERS_CANCELLED_TOPIC], groupId = "notification")
    fun onOrderCancelled(payload: String) {
        val event = json.readValue<OrderCancelled>(payload)
        notifications.send(
            Notification(
                userId = event.customerId,
                orderId = event.orderId,
                subject = "Your order ${event.orderId} was cancelled",
                body = "Reason: ${event.reason ?: "not given"}. Any payment will be refunded.",
            ),
        )
    }
}
