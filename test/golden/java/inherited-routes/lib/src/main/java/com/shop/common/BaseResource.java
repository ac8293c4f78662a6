package com.shop.common;

/** Helpers only: a resource extending it inherits no route. */
public abstract class BaseResource {

  protected String version() {
    return "1";
  }
}
