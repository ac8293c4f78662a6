package shop.cache

import shop.internal.Holder

class Cache(private val store: Store) {
    fun put(value: Any) {
        // No broker is imported: `publish` and `send` here are a cache's own methods.
        store.publish(Holder.HIDDEN, value)
        store.send(Topics.ORDERS, value)
        store.send(ORDERS, value)
    }
}
