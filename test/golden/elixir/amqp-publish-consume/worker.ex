defmodule Billing.Worker do
  def run(chan) do
    AMQP.Basic.publish(chan, "orders", "order.created", "{}")
    AMQP.Basic.publish(chan, "", "invoices", "{}")
    {:ok, %{queue: queue}} = AMQP.Queue.declare(chan, "billing.orders", durable: true)
    AMQP.Queue.bind(chan, queue, "orders", routing_key: "order.*")
    AMQP.Basic.consume(chan, queue)
    {:ok, %{queue: replies}} = AMQP.Queue.declare(chan, "", exclusive: true)
    AMQP.Basic.consume(chan, replies, nil, no_ack: true)
  end
end
