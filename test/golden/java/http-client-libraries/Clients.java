package com.shop.checkout;

import io.dapr.client.DaprClient;
import io.dapr.client.domain.HttpExtension;
import java.net.URI;
import java.net.http.HttpRequest;
import javax.ws.rs.client.Client;
import javax.ws.rs.client.ClientBuilder;
import javax.ws.rs.client.Entity;
import javax.ws.rs.client.WebTarget;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.util.UriComponentsBuilder;

class GatewayTemplate extends RestTemplate {
    String ping() {
        return getForObject("http://status:9000/ping", String.class);
    }
}

public class Clients {
    private static final String ORDERS = "http://orders:8080";

    @Value("${inventory.url:http://inventory:8081}")
    private String inventoryUrl;

    private final RestTemplate restTemplate;
    private final GatewayTemplate gateway;
    private final DaprClient daprClient;
    private final Environment env;
    private final WebTarget stock;

    public Clients(RestTemplate restTemplate, GatewayTemplate gateway, DaprClient daprClient, Environment env) {
        this.restTemplate = restTemplate;
        this.gateway = gateway;
        this.daprClient = daprClient;
        this.env = env;
        Client client = ClientBuilder.newClient();
        this.stock = client.target(System.getenv("STOCK_URL"));
    }

    private String serviceUrl(String name) {
        return "http://" + name + ":8080";
    }

    void calls(String id, boolean express, String anyUrl) {
        restTemplate.getForObject(String.format("%s/orders/%s", ORDERS, id), String.class);
        restTemplate.postForObject("%s/items/%d".formatted(inventoryUrl, 3), null, String.class);
        String shipping;
        if (express) {
            shipping = "http://express:8080/shipments";
        } else {
            shipping = "http://ground:8080/shipments";
        }
        restTemplate.exchange(shipping, HttpMethod.POST, null, String.class);
        restTemplate.execute(serviceUrl("billing") + "/invoices/" + id, HttpMethod.DELETE, null, null);
        restTemplate.getForObject(env.getProperty("pricing.url") + "/prices", String.class);
        String uri = UriComponentsBuilder.fromHttpUrl(ORDERS).path("/orders/{id}").queryParam("x", 1).toUriString();
        restTemplate.put(uri, null);
        gateway.delete("http://status:9000/cache");
        restTemplate.getForObject(anyUrl, String.class);
        daprClient.invokeMethod("payments", "charge", id, HttpExtension.POST, String.class);
        daprClient.invokeMethod("payments", "refunds", HttpExtension.NONE, null);
    }

    void builders(String id) {
        new Request.Builder().url(ORDERS + "/orders/" + id).put(RequestBody.create(null, "")).build();
        new Request.Builder().url("http://orders:8080/health").build();
        HttpRequest.newBuilder(URI.create(ORDERS + "/orders")).method("PATCH", null).build();
        ClientBuilder.newClient().target("http://catalog:8080").path("products").path(id).request().get();
        stock.path("levels").path(id).request("application/json").put(Entity.json(id));
    }
}
