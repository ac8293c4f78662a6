package com.shop.catalog;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import com.shop.common.BaseResource;

/** Its base declares no route: only its own method is served. */
@Path("health")
public class HealthResource extends BaseResource {

  @GET
  public String health() {
    return version();
  }
}
