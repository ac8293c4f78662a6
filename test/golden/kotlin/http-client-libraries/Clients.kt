package com.shop.checkout

import io.dapr.client.DaprClient
import io.dapr.client.domain.HttpExtension
import io.ktor.client.HttpClient
import io.ktor.client.engine.cio.CIO
import io.ktor.client.plugins.defaultRequest
import io.ktor.client.request.get
import io.ktor.client.request.post
import okhttp3.Request
import org.springframework.core.env.Environment
import org.springframework.http.HttpMethod
import org.springframework.web.client.RestTemplate

const val ORDERS = "http://orders:8080"

class Clients(
    private val restTemplate: RestTemplate,
    private val dapr: DaprClient,
    private val env: Environment,
) {
    private val catalog = HttpClient(CIO) {
        defaultRequest { url("http://catalog:8080/api/") }
    }
    private val plain = HttpClient(CIO)

    suspend fun calls(id: String, express: Boolean) {
        catalog.get("products/$id")
        plain.post("http://reviews:8080/reviews")
        restTemplate.getForObject(String.format("%s/orders/%s", ORDERS, id), String::class.java)
        restTemplate.postForObject("%s/items".format(env.getProperty("inventory.url")), null, String::class.java)
        val shipping = if (express) "http://express:8080/shipments" else "http://ground:8080/shipments"
        restTemplate.exchange(shipping, HttpMethod.POST, null, String::class.java)
        dapr.invokeMethod("payments", "charge", id, HttpExtension.PUT, String::class.java)
        Request.Builder().url("$ORDERS/orders/$id").delete().build()
    }
}
