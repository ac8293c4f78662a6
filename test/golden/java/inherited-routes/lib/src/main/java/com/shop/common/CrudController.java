package com.shop.common;

import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

/** A Spring base controller: no class mapping of its own. */
public abstract class CrudController<T> {

  @GetMapping("/{id}")
  public T get(@PathVariable long id) {
    return load(id);
  }

  @PostMapping
  public T create(@RequestBody T body) {
    return body;
  }

  @DeleteMapping("/{id}")
  public void delete(@PathVariable long id) {}

  protected abstract T load(long id);
}
