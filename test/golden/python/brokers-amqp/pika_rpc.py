import os
import sys

import pika

EXCHANGE = os.getenv("ORDERS_EXCHANGE", "orders")

connection = pika.BlockingConnection(pika.ConnectionParameters(host="localhost"))
channel = connection.channel()

# Declaring alone is neither producing nor consuming.
channel.queue_declare(queue="audit", durable=True)
channel.exchange_declare(exchange=EXCHANGE, exchange_type="topic")


def publish_created(order_id):
    channel.basic_publish(exchange=EXCHANGE, routing_key="order.created", body=str(order_id))


def publish_to(queue):
    channel.basic_publish(exchange="", routing_key=queue, body="x")


class Worker:
    def __init__(self):
        self.channel = connection.channel()
        result = self.channel.queue_declare(queue="", exclusive=True)
        self.callback_queue = result.method.queue
        self.channel.basic_consume(queue=self.callback_queue, on_message_callback=self.on_reply)

    def on_reply(self, ch, method, props, body):
        ch.basic_publish(exchange="", routing_key=props.reply_to, body=body)


billing = channel.queue_declare(queue="billing", durable=True).method.queue
for key in ["order.created", "order.paid", "order.created"]:
    channel.queue_bind(exchange=EXCHANGE, queue=billing, routing_key=key)
channel.basic_consume(queue=billing, on_message_callback=print)

fresh = channel.queue_declare("", exclusive=True)
for severity in sys.argv[1:]:
    channel.queue_bind(fresh.method.queue, "direct_logs", severity)
channel.basic_consume(fresh.method.queue, print)

channel.basic_consume(queue="rpc_queue", on_message_callback=print)
