"""Turns every ``stock.reserved`` event into a shipment with a printed label."""

from __future__ import annotations

import json
import logging
import os

import httpx
from confluent_kafka import Consumer, Producer

from shipping.checkout_client import CheckoutClient
from shipping.store import SHIPMENTS, Shipment

log = logging.getLogger(__name__)

KAFKA_BROKERS = os.environ.get("KAFKA_BROKERS", "kafka:9092")
INVENTORY_URL = os.environ["INVENTORY_URL"]
# Set per environment by the platform team; the value is not known to this repository.
AUDIT_TOPIC = os.environ["SHIPMENT_AUDIT_TOPIC"]


def low_stock_skus(skus: list[str], threshold: int = 5) -> list[str]:
    """SKUs whose remaining stock is at or below the threshold, for the warehouse to restock."""
    low = []
    for sku in skus:
        response = httpx.get(f"{INVENTORY_URL}/stock/{sku}", timeout=2.0)
        if response.status_code == 200 and response.json()["available"] <= threshold:
            low.append(sku)
    return low


def run_stock_consumer(checkout: CheckoutClient) -> None:
    consumer = Consumer({"bootstrap.servers": KAFKA_BROKERS, "group.id": "shipping", "enable.auto.commit": False})
    audit = Producer({"bootstrap.servers": KAFKA_BROKERS})
    consumer.subscribe(["stock.reserved"])
    try:
        while True:
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            if msg.error():
                log.warning("consumer error: %s", msg.error())
                continue
            event = json.loads(msg.value())
            address = checkout.shipping_address(event["orderId"])
            skus = [item["sku"] for item in event["items"]]
            shipment = SHIPMENTS.add(Shipment(event["orderId"], event["warehouse"], address.recipient, address.city, skus=skus))
            audit.produce(AUDIT_TOPIC, key=shipment.order_id, value=json.dumps({"orderId": shipment.order_id, "status": shipment.status}))
            if low := low_stock_skus(skus):
                log.info("restock needed at %s for %s", event["warehouse"], ", ".join(low))
            consumer.commit(message=msg)
    finally:
        audit.flush(5.0)
        consumer.close()
