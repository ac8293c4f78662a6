# No locust import: a `client` attribute of a parameter is just some object's attribute.
import random


def index(l):
    l.client.get("/")


def refresh(cache):
    cache.client.post("/setCurrency", {"currency_code": random.choice(["EUR", "USD"])})
