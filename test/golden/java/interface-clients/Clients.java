package com.shop.clients;

import feign.RequestLine;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;
import retrofit2.http.GET;
import retrofit2.http.POST;
import javax.ws.rs.GET;
import javax.ws.rs.Path;

interface OrderApi {
    @GetMapping("/orders/{id}")
    String get(String id);

    @PostMapping("/orders")
    String create(String body);
}

@FeignClient(name = "orders", path = "/api")
interface OrderClient extends OrderApi {
    @GetMapping("/orders/recent")
    String recent();
}

interface GitHub {
    @RequestLine("GET /repos/{owner}/{repo}/contributors")
    String contributors(String owner, String repo);
}

interface UserService {
    @GET("users/{user}")
    String user(String user);

    @POST("users")
    String create(String body);
}

@HttpExchange("/stock")
interface StockClient {
    @GetExchange("/{sku}")
    String level(String sku);
}

@RegisterRestClient(configKey = "ratings")
@Path("/ratings")
interface RatingsClient {
    @GET
    @Path("/{id}")
    String rating(String id);
}
