from kombu import Connection, Consumer, Exchange, Producer, Queue

media = Exchange("media", type="direct")
video = Queue("video", exchange=media, routing_key="video")


def send(conn: Connection):
    producer = Producer(conn.channel())
    producer.publish({"name": "x"}, exchange=media, routing_key="video", declare=[video])
    producer.publish({"name": "y"}, routing_key="plain-queue")


def receive(conn: Connection):
    with Consumer(conn.channel(), queues=[video], callbacks=[print]):
        conn.drain_events()
