@file:JvmName("Names")

package shop.messaging

const val AUDIT = "audit"
const val PUBSUB = "pubsub"
const val REGISTRATION: String = "shipment-registration-events"
