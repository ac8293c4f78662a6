package shop.orders;

import java.util.List;

/** A router of its own: `route`, `path` and `uri` methods that are not Spring Cloud Gateway's. */
public class Router {
  private final RouteLocatorBuilderLike routes = new RouteLocatorBuilderLike();

  public void configure() {
    routes.route("orders", r -> r.path("/orders/**").uri("lb://orders"));
    // builder.routes().route(r -> r.path("/x/**").uri("lb://x"))
    String text = ".route(r -> r.path(\"/y/**\").uri(\"lb://y\"))";
  }
}
