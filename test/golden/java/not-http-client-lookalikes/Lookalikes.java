package com.shop.negative;

import java.util.Map;
import java.util.Optional;
import okhttp3.Request;

interface OrderRepository {
    void delete(String id);
}

public class Lookalikes {
    private final Map<String, String> cache;
    private final OrderRepository repository;
    private final Cannon cannon;

    Lookalikes(Map<String, String> cache, OrderRepository repository, Cannon cannon) {
        this.cache = cache;
        this.repository = repository;
        this.cannon = cannon;
    }

    void notCalls(Optional<String> maybe, String id) {
        cache.get("http://orders:8080/x");
        maybe.get();
        repository.delete("http://orders:8080/orders/" + id);
        cannon.target("http://orders:8080").path("x");
        cannon.exchange("http://orders:8080/orders", "PUT");
        String.format("%s/orders", "http://orders:8080");
        new Request.Builder();
    }

    static class Cannon {
        Cannon target(String aim) { return this; }
        Cannon path(String p) { return this; }
        void exchange(String a, String b) {}
    }
}
