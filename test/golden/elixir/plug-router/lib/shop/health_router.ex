defmodule Shop.HealthRouter do
  @moduledoc """
  A bare Plug router for probes and webhooks.
  """
  use Plug.Router

  plug :match
  plug :dispatch

  get "/healthz" do
    HTTPoison.get!("http://inventory:4000/healthz")
    send_resp(conn, 200, "ok")
  end

  get "/orders/:id" do
    send_resp(conn, 200, id)
  end

  match "/hooks/:source", via: [:post, :put] do
    send_resp(conn, 202, "")
  end

  forward "/admin", to: Shop.AdminRouter

  match _ do
    send_resp(conn, 404, "not found")
  end
end
