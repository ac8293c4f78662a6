package com.shop.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Application;

@ApplicationPath("/rest")
public class ShopApplication extends Application {}

@Path("products")
class ProductResource {
  @GET
  @Path("{id}")
  public String get(String id) {
    return id;
  }
}
