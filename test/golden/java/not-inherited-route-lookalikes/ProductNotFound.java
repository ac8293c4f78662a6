package com.shop.catalog;

/** An exception named like a resource. */
public class ProductNotFound extends RuntimeException {

  public ProductNotFound(String path) {
    super("/products/" + path);
  }
}
