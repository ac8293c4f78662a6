import random
from locust import FastHttpUser, TaskSet, between


def index(l):
    l.client.get("/")


def set_currency(l):
    l.client.post("/setCurrency", {"currency_code": random.choice(["EUR", "USD"])})


def browse_product(user):
    user.client.get("/product/" + random.choice(["A1", "B2"]))


class UserBehavior(TaskSet):
    def on_start(self):
        index(self)

    tasks = {index: 1, set_currency: 2, browse_product: 10}


class WebsiteUser(FastHttpUser):
    tasks = [UserBehavior]
    wait_time = between(1, 10)
