"""Every Python HTTP client library the extractor reads, with URLs built in the usual ways."""
import os
from urllib.parse import urljoin
from urllib.request import Request, urlopen

import aiohttp
import httpx
import requests

CART_URL = os.environ["CART_URL"]
PAYMENT_HOST = os.getenv("PAYMENT_HOST", "payment")
CATALOG = "http://catalog:3550/api"


class Orders:
    BASE = "http://orders:8080"

    def __init__(self):
        host = os.environ.get("SHIPPING_HOST", "shipping")
        self.shipping = f"http://{host}:50051"
        self.session = requests.Session()

    def place(self, order_id):
        requests.post(f"{CART_URL}/cart/{order_id}/checkout", json={})
        requests.get("http://%s:8080/charge/%s" % (PAYMENT_HOST, order_id))
        requests.request("PUT", self.BASE + "/orders/" + str(order_id))
        self.session.get("{}/quote/{}".format(self.shipping, order_id))
        requests.get(urljoin(CATALOG, "/products"))

    def forward(self, url, method):
        # Neither the URL nor the method is known here: still a call.
        requests.request(method, url)


async def reserve(sku):
    async with httpx.AsyncClient(base_url=os.environ["INVENTORY_URL"]) as client:
        await client.post(f"/reserve/{sku}")
    with httpx.Client(base_url="http://ads:9555") as ads:
        ads.get("/ads")
    async with aiohttp.ClientSession("http://reviews:8000") as session:
        await session.request("DELETE", f"/reviews/{sku}")
    async with aiohttp.ClientSession() as plain:
        await plain.get("http://ratings:8000/ratings")


def legacy(sku):
    urlopen("http://stock:7000/stock/" + sku)
    urlopen(Request("http://stock:7000/stock", data=b"{}", method="PATCH"))
    urlopen("http://stock:7000/refresh", b"")
