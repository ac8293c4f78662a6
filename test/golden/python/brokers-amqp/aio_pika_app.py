import aio_pika
from aio_pika import ExchangeType, Message


async def main(url):
    connection = await aio_pika.connect_robust(url)
    channel = await connection.channel()
    await channel.default_exchange.publish(Message(b"hi"), routing_key="hello")

    logs = await channel.declare_exchange("logs", ExchangeType.FANOUT)
    await logs.publish(Message(b"x"), routing_key="")

    queue = await channel.declare_queue("hello")
    await queue.consume(print)

    mine = await channel.declare_queue(exclusive=True)
    await mine.bind(logs)
    async with mine.iterator() as messages:
        async for message in messages:
            print(message)

    topic = await channel.declare_exchange("topic_logs", ExchangeType.TOPIC)
    kern = await channel.declare_queue("kern")
    await kern.bind(topic, routing_key="kern.*")
    await kern.consume(print)
