"""Objects shaped like HTTP clients that are not one."""
import locust_plugins
from mylib import Session, urlopen


class Page:
    def __init__(self, client):
        self.client = client

    def open(self):
        # A `client` attribute on a class that is no Locust user.
        self.client.get("/orders")


class Tasks(locust_plugins.Base):
    def run(self):
        self.client.get("/cart")


def lookups(cache, invoker):
    config = {"url": "http://cart:8080"}
    config.get("url")
    cache.post("/items", 1)
    requests = ["http://a/b"]
    requests.get(0)
    Session().get("http://orders/x")
    urlopen("http://stock:7000/stock")
    invoker.invoke_method("orders", "create")
