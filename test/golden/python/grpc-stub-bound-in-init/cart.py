from grpc_health.v1 import health_pb2_grpc
from shop import cart_pb2_grpc
class Cart:
    def add(self, item):
        return self.stub.AddItem(item)
    def __init__(self, channel):
        self.stub = cart_pb2_grpc.CartServiceStub(channel)
        self.health = health_pb2_grpc.HealthStub(channel)
        self.health.Check(None)
