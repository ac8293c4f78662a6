package com.shop.common;

import java.util.List;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

/** Subclasses serve these routes under their own @Path; this one is replaced. */
@Path("abstract")
public abstract class AbstractCRUDEndpoint<T> {

  @POST
  public Response create(final T entity) {
    return Response.ok(createEntity(entity)).build();
  }

  @GET
  @Path("/{id:[0-9][0-9]*}")
  public Response findById(@PathParam("id") final Long id) {
    return Response.ok(findEntityById(id)).build();
  }

  @GET
  public List<T> listAll() {
    return listAllEntities();
  }

  @PUT
  @Path("/{id:[0-9][0-9]*}")
  public Response update(@PathParam("id") Long id, final T entity) {
    return Response.ok().build();
  }

  @DELETE
  @Path("/{id:[0-9][0-9]*}")
  public Response deleteById(@PathParam("id") final Long id) {
    return Response.ok().build();
  }

  protected abstract long createEntity(T entity);

  protected abstract T findEntityById(long id);

  protected abstract List<T> listAllEntities();
}
