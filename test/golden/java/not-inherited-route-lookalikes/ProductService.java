package com.shop.catalog;

import org.springframework.stereotype.Service;

import com.shop.common.AbstractCRUDService;

/** Extends a base the way a resource would, but serves nothing. */
@Service
public class ProductService extends AbstractCRUDService<Product> {

  @Override
  protected Product load(long id) {
    return null;
  }
}
