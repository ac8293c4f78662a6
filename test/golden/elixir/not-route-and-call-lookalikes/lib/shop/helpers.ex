defmodule Shop.Helpers do
  @moduledoc """
  Helpers. Do not call `HTTPoison.get("http://billing:8080/invoices")` from here,
  and do not declare `get "/orders", OrderController, :index` routes either.
  """

  @note "HTTPoison.post(\"http://billing:8080/payments\")"

  # HTTPoison.get!("http://billing:8080/invoices") would block the caller.

  def get(map, key), do: Map.get(map, key)

  def fetch(opts) do
    timeout = Keyword.get(opts, :timeout, 5_000)
    Process.get(:request_id) || timeout
  end

  def post(conn, "/orders", params), do: {conn, params}

  def client, do: Req.new(base_url: "http://billing:8080")
end

defmodule Shop.FakeRouter do
  # Not a router (no `use Phoenix.Router`): these are calls of an imported macro.
  import Shop.Routing

  get "/orders", Shop.OrderController, :index
  resources "/users", Shop.UserController
end

defmodule Shop.Lookup do
  import Shop.Helpers

  # A local `get/2` with a path-like key: no client is involved.
  def orders(map), do: get(map, "/orders")
end
