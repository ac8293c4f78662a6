from confluent_kafka import Producer
if PROD:
    TOPIC = "orders.v2"
else:
    TOPIC = "orders.v1"
NAME = "audit"
producer = Producer({})
def send(NAME):
    producer.produce(TOPIC, b"")
    producer.produce(NAME, b"")
    producer.produce(f"{NAME}.dlq", b"")
