defmodule Shop.Notifier do
  @moduledoc "A module of the app that happens to name its functions broadcast and subscribe."
  use GenServer
  alias Shop.PubSub

  def broadcast(topic, event, payload), do: GenServer.cast(__MODULE__, {topic, event, payload})

  def subscribe(pid, topic), do: GenServer.call(pid, {:subscribe, topic})

  def run(socket, pid) do
    Shop.Notifier.broadcast("orders", "created", %{})
    Shop.Feed.subscribe(pid, "prices")
    PubSub.subscribe(Shop.PubSub, "prices")
    GenServer.call(Shop.Feed, {:subscribe, "prices"})
    # A channel's broadcast goes to the socket's own topic: no topic is named here.
    broadcast(socket, "new_msg", %{})
    Phoenix.PubSub.unsubscribe(Shop.PubSub, "prices")
    Phoenix.PubSub.broadcast(Shop.PubSub, "too", "many", "arguments", "here")
    Logger.info("broadcast to orders")
  end

  def init(state), do: {:ok, state}
end
