package com.shop;

/** Not servlets: a doGet that is no override of a @WebServlet class, an annotation named in a string. */
public class Lookalikes {
  String note = "@WebServlet(\"/x\") and @ApplicationPath(\"/rest\")";

  protected void doGet(Object request, Object response) {}

  // @WebServlet("/commented")
  @WebServlet(urlPatterns = {})
  static class Unmapped {
    protected void doPost(Object request, Object response) {}
  }

  @WebServlet("*.do")
  static class ExtensionOnly {}

  @ApplicationPath(ROOT)
  static class UnresolvedPath {}
}
