package shop.messaging

object Topics {
    const val PREFIX = "shop."
    const val ORDERS = "orders"
    const val PAYMENTS = PREFIX + "payments"
    val SHIPMENTS = "shipments"
}
