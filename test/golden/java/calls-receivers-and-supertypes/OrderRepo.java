package com.shop.orders;

/** Storage of orders. */
public interface OrderRepo extends Repo<Order>, AutoCloseable {
    Order find(String id);

    default Order findOrFail(String id) {
        return require(find(id));
    }
}
