import grpc

import demo_pb2
import demo_pb2_grpc


class Recommender:
    def __init__(self, channel):
        self.catalog = demo_pb2_grpc.ProductCatalogServiceStub(channel)
        # Kept for later: never called.
        self.ads = demo_pb2_grpc.AdServiceStub(channel)

    def recommend(self):
        return self.catalog.ListProducts(demo_pb2.Empty())


if __name__ == "__main__":
    channel = grpc.insecure_channel("catalog:3550")
    currency = demo_pb2_grpc.CurrencyServiceStub(channel)
