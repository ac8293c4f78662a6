package com.shop.catalog;

import com.shop.common.AbstractCRUDEndpoint;

/** Extends a resource base, but is no resource itself: no @Path, no controller annotation. */
public class ProductCache extends AbstractCRUDEndpoint<Product> {

  private final String path = "products";
}
