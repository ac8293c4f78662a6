package shop.shipping

import io.dapr.client.DaprClient
import shop.messaging.*

class ShipmentActivity(private val daprClient: DaprClient) {
    fun register(order: Any) {
        daprClient.publishEvent(PUBSUB, REGISTRATION, order).block()
    }
}
