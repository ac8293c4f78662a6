import os

from locust import HttpUser, TaskSet, task
from locust.contrib.fasthttp import FastHttpUser


class Browsing(TaskSet):
    @task
    def index(self):
        self.client.get("/")


class WebsiteUser(HttpUser):
    host = os.getenv("FRONTEND_ADDR", "http://frontend:8080")
    tasks = [Browsing]

    @task
    def cart(self):
        self.client.post("/cart", {"product_id": "OLJCESPC7Z", "quantity": 1})
        self.client.request("GET", "/product/OLJCESPC7Z", name="/product")


class MobileUser(WebsiteUser):
    @task
    def setCurrency(self):
        self.client.post("/setCurrency", {"currency_code": "EUR"})


class FastUser(FastHttpUser):
    @task
    def logout(self):
        self.client.get("/logout")
