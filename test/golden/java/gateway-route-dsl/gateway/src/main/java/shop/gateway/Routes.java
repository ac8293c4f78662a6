package shop.gateway;

import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
public class Routes {
  @Bean
  public RouteLocator routes(RouteLocatorBuilder builder) {
    return builder.routes()
        .route("orders", r -> r.path("/api/orders/**", "/api/carts/**")
            .filters(f -> f.stripPrefix(1).addRequestHeader("X-Gw", "edge"))
            .uri("lb://order-service"))
        .route(r -> r.path("/pay/**")
            .filters(f -> f.rewritePath("/pay/(?<segment>.*)", "/v1/payments/${segment}"))
            .uri("http://payment:8080"))
        .route("catalog", r -> r.host("*.shop.io").and().path("/catalog/**")
            .filters(f -> f.prefixPath("/internal"))
            .uri("lb://catalog"))
        .build();
  }
}
