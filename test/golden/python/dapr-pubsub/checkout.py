import os

import requests
from dapr.clients import DaprClient

DAPR_URL = os.getenv("DAPR_URL", "http://localhost:3500")
PUBSUB = "orderpubsub"


def publish(order):
    with DaprClient() as client:
        client.publish_event(pubsub_name=PUBSUB, topic_name="orders", data=order)
    requests.post(f"{DAPR_URL}/v1.0/publish/{PUBSUB}/refunds", json=order)
