package com.shop.negative

class Cache {
    fun get(key: String): String? = null
    fun post(key: String) {}
}

class Lookalikes(private val cache: Cache, private val values: Map<String, String>) {
    fun notCalls(id: String) {
        cache.get("http://orders:8080/orders/$id")
        cache.post("http://orders:8080/orders")
        values.get("http://orders:8080")
        "%s/orders".format("http://orders:8080")
    }
}
