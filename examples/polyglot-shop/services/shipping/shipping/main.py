"""HTTP API of the shipping service and the start-up of its consumers."""

from __future__ import annotations

import threading
from contextlib import asynccontextmanager

import shop_events
from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

from shipping import cancellations  # noqa: F401  (registers the @on_event handlers)
from shipping.checkout_client import CheckoutClient
from shipping.stock_consumer import run_stock_consumer
from shipping.store import SHIPMENTS


class ShipmentView(BaseModel):
    orderId: str
    carrier: str
    trackingNumber: str
    status: str


@asynccontextmanager
async def lifespan(_: FastAPI):
    checkout = CheckoutClient()
    threading.Thread(target=run_stock_consumer, args=(checkout,), daemon=True).start()
    threading.Thread(target=shop_events.run, daemon=True).start()
    yield
    checkout.close()


app = FastAPI(title="shipping", lifespan=lifespan)


@app.get("/shipments/{order_id}")
def get_shipment(order_id: str) -> ShipmentView:
    shipment = SHIPMENTS.get(order_id)
    if shipment is None:
        raise HTTPException(status_code=404, detail=f"no shipment for order {order_id}")
    return ShipmentView(
        orderId=shipment.order_id,
        carrier=shipment.carrier,
        trackingNumber=shipment.tracking_number,
        status=shipment.status.value,
    )
