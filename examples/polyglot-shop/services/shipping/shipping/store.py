"""In-memory shipment book; the demo keeps no database."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from enum import Enum


class ShipmentStatus(str, Enum):
    PENDING = "pending"
    LABEL_PRINTED = "label_printed"
    DISPATCHED = "dispatched"
    CANCELLED = "cancelled"


@dataclass
class Shipment:
    order_id: str
    warehouse: str
    recipient: str
    city: str
    carrier: str = "postnl"
    tracking_number: str = ""
    status: ShipmentStatus = ShipmentStatus.PENDING
    skus: list[str] = field(default_factory=list)


class ShipmentBook:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._shipments: dict[str, Shipment] = {}

    def add(self, shipment: Shipment) -> Shipment:
        with self._lock:
            shipment.tracking_number = f"3S{abs(hash(shipment.order_id)) % 10**10:010d}"
            shipment.status = ShipmentStatus.LABEL_PRINTED
            self._shipments[shipment.order_id] = shipment
            return shipment

    def get(self, order_id: str) -> Shipment | None:
        with self._lock:
            return self._shipments.get(order_id)

    def cancel(self, order_id: str) -> Shipment | None:
        with self._lock:
            shipment = self._shipments.get(order_id)
            if shipment is not None and shipment.status != ShipmentStatus.DISPATCHED:
                shipment.status = ShipmentStatus.CANCELLED
            return shipment


SHIPMENTS = ShipmentBook()
