import pika

connection = pika.BlockingConnection(pika.ConnectionParameters("localhost"))
channel = connection.channel()
channel.queue_declare(queue="never_used")
channel.exchange_declare(exchange="also_unused", exchange_type="fanout")
