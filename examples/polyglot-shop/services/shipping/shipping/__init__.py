"""Shipping service of the polyglot shop.

Consumes ``stock.reserved`` to create shipments, cancels them on ``orders.cancelled`` and exposes
shipment tracking over HTTP. Generated gRPC modules live in ``shipping/gen`` (built from
``../../proto`` by ``python -m grpc_tools.protoc``; not checked in).
"""

__version__ = "0.4.0"
