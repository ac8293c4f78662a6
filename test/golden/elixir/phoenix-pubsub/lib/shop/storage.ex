defmodule Shop.Storage do
  @moduledoc "Keeps the flags and tells every subscriber when they change."
  use GenServer

  @topic "flags"
  @audit_topic System.get_env("AUDIT_TOPIC", "audit")

  @doc "The topic carrying the flags after every write."
  def topic, do: @topic

  def audit_topic, do: @audit_topic

  def orders_topic() do
    "orders"
  end

  defp secret_topic, do: "hidden"

  def kind(:a), do: "a"
  def kind(:b), do: "b"

  def init(state), do: {:ok, state}

  def handle_cast({:write, flags}, _state) do
    broadcast(flags)
    Phoenix.PubSub.broadcast!(Shop.PubSub, orders_topic(), {:written, flags})
    Phoenix.PubSub.local_broadcast(Shop.PubSub, @audit_topic, {:audit, flags})
    {:noreply, flags}
  end

  def notify_user(id, message) do
    Phoenix.PubSub.broadcast(Shop.PubSub, "user:#{id}", message)
  end

  def relay(message) do
    Phoenix.PubSub.broadcast_from(Shop.PubSub, self(), "relay", message)
    Phoenix.PubSub.direct_broadcast(:"shop@node2", Shop.PubSub, "relay", message)
  end

  defp broadcast(flags) do
    Phoenix.PubSub.broadcast(Shop.PubSub, @topic, {:flags_changed, flags})
  end
end
