package com.shop.web;

import javax.servlet.annotation.WebServlet;

/** Handlers are inherited from a base class in another file: any method. */
@WebServlet(name = "cart", urlPatterns = {CartServlet.PATH, "/basket/*"})
public class CartServlet extends AbstractUiServlet {
  static final String PATH = "/cart";

  @Override
  protected void handleGet(Object request, Object response) {}
}
