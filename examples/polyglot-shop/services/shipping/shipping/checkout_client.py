"""Reads orders from the order gateway's CheckoutService (gRPC)."""

from __future__ import annotations

import os
from dataclasses import dataclass

import grpc

from shipping.gen import checkout_pb2, checkout_pb2_grpc

CHECKOUT_GRPC_ADDR = os.environ.get("CHECKOUT_GRPC_ADDR", "order-gateway:50050")


@dataclass(frozen=True)
class OrderAddress:
    order_id: str
    recipient: str
    street: str
    city: str
    postal_code: str
    country_code: str


class CheckoutClient:
    def __init__(self, target: str = CHECKOUT_GRPC_ADDR) -> None:
        self._channel = grpc.insecure_channel(target)
        self._stub = checkout_pb2_grpc.CheckoutServiceStub(self._channel)

    def shipping_address(self, order_id: str) -> OrderAddress:
        order = self._stub.GetOrder(checkout_pb2.GetOrderRequest(order_id=order_id), timeout=3.0)
        address = order.shipping_address
        return OrderAddress(
            order_id=order.order_id,
            recipient=address.recipient,
            street=address.street,
            city=address.city,
            postal_code=address.postal_code,
            country_code=address.country_code,
        )

    def close(self) -> None:
        self._channel.close()
