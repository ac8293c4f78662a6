package com.shop.orders;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.shop.common.CrudController;

/** Serves the base controller's mappings under /orders and /v1/orders. */
@RestController
@RequestMapping({"/orders", "/v1/orders"})
public class OrderController extends CrudController<Order> {

  @Override
  protected Order load(long id) {
    return new Order(id);
  }

  @GetMapping("/open")
  public Order[] open() {
    return new Order[0];
  }
}
