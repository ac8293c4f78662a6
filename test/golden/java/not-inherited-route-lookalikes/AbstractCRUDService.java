package com.shop.common;

import java.util.List;

/** A service base with CRUD-looking methods but no route annotation. */
public abstract class AbstractCRUDService<T> {

  public T get(long id) {
    return load(id);
  }

  public List<T> list() {
    return List.of();
  }

  protected abstract T load(long id);
}
