package com.shop.catalog;

import java.util.List;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

import com.shop.common.AbstractCRUDEndpoint;

/** Serves the inherited CRUD routes under /products, plus its own. */
@Path("products")
public class ProductEndpoint extends AbstractCRUDEndpoint<Product> {

  @Override
  protected long createEntity(Product product) {
    return 1L;
  }

  @Override
  protected Product findEntityById(long id) {
    return null;
  }

  @Override
  protected List<Product> listAllEntities() {
    return List.of();
  }

  @GET
  @Path("category/{category:[0-9][0-9]*}")
  public List<Product> listAllForCategory(@PathParam("category") final Long categoryId) {
    return List.of();
  }

  /** Overrides the inherited route with its own path. */
  @GET
  @Path("/by-id/{id}")
  @Override
  public Response findById(@PathParam("id") final Long id) {
    return Response.ok().build();
  }
}
