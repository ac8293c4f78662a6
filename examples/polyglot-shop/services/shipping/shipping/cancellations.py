"""Cancels shipments of cancelled orders.

``shop_events`` is the platform's event library: ``@on_event(topic)`` registers a handler, and
``shop_events.run`` subscribes to every registered topic with the group id from pyproject.toml.
"""

from __future__ import annotations

import logging

from shop_events import on_event

from shipping.store import SHIPMENTS, ShipmentStatus

log = logging.getLogger(__name__)


@on_event("orders.cancelled")
def cancel_shipment(event: dict) -> None:
    order_id = event["orderId"]
    shipment = SHIPMENTS.cancel(order_id)
    if shipment is None:
        log.info("order %s cancelled before a shipment existed", order_id)
    elif shipment.status == ShipmentStatus.DISPATCHED:
        log.warning("order %s cancelled after dispatch; a return label is needed", order_id)
    else:
        log.info("shipment for order %s cancelled (%s)", order_id, event.get("reason", "no reason"))
