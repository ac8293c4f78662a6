import nats


async def run():
    nc = await nats.connect("nats://localhost:4222")
    await nc.subscribe("orders.*", cb=print)
    await nc.publish("orders.created", b"{}")
    js = nc.jetstream()
    await js.publish("events.shipped", b"{}")
    await js.subscribe("events.>", durable="shipper")
