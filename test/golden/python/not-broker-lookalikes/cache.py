import queue


class Cache:
    def publish(self, key, value):
        pass


cache = Cache()
cache.publish("orders", "x")
events = queue.Queue()
events.put("orders")
TOPIC = "orders.created"
