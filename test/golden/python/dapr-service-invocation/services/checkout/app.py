import json
import os

import requests
from dapr.clients import DaprClient

DAPR_HTTP_PORT = os.getenv("DAPR_HTTP_PORT", "3500")
BASE_URL = os.getenv("BASE_URL", "http://localhost")


def checkout(order):
    with DaprClient() as client:
        client.invoke_method("order-processor", "orders", data=json.dumps(order), http_verb="post")
        client.invoke_method(app_id="inventory", method_name="stock")
    requests.post(f"http://localhost:{DAPR_HTTP_PORT}/v1.0/invoke/payments/method/charge", json=order)
    requests.post(
        f"{BASE_URL}:{DAPR_HTTP_PORT}/orders",
        json=order,
        headers={"dapr-app-id": "order-processor"},
    )
