import pika

channel = pika.BlockingConnection().channel()
result = channel.queue_declare(queue="", exclusive=True)
channel.basic_consume(queue=result.method.queue, on_message_callback=print)
