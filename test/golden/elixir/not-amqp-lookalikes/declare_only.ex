defmodule Setup.Topology do
  # Declaring and binding publishes and consumes nothing; Basic of another module is no AMQP call.
  def run(chan) do
    AMQP.Exchange.declare(chan, "orders", :topic)
    {:ok, %{queue: queue}} = AMQP.Queue.declare(chan, "billing.orders")
    AMQP.Queue.bind(chan, queue, "orders", routing_key: "order.*")
    Basic.publish(chan, "orders", "order.created", "{}")
  end
end
