package shop.cache;

import shop.internal.Holder;

public class Cache {
    private final Store store;

    Cache(Store store) {
        this.store = store;
    }

    void put(Object value) {
        // No broker is imported: `publish` and `send` here are a cache's own methods.
        store.publish(Holder.HIDDEN, value);
        store.send(Topics.ORDERS, value);
    }
}
