defmodule ShopWeb.DashboardLive do
  use ShopWeb, :live_view
  alias Phoenix.PubSub
  alias Shop.Storage

  def mount(_params, _session, socket) do
    if connected?(socket) do
      PubSub.subscribe(Shop.PubSub, Storage.topic())
      Shop.PubSub |> Phoenix.PubSub.subscribe("relay")
      ShopWeb.Endpoint.subscribe("room:lobby")
    end

    {:ok, socket}
  end

  def handle_event("say", %{"text" => text}, socket) do
    ShopWeb.Endpoint.broadcast("room:lobby", "new_msg", %{text: text})
    ShopWeb.Endpoint.broadcast_from(self(), "room:lobby", "echo", %{text: text})
    {:noreply, socket}
  end
end
