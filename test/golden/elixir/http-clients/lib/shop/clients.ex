defmodule Shop.Billing do
  @moduledoc "Calls the billing service with HTTPoison."

  @base_url System.get_env("BILLING_URL", "http://billing:8080")
  @timeout 5_000

  def invoice(id) do
    HTTPoison.get!("#{@base_url}/invoices/#{id}", [], recv_timeout: @timeout)
  end

  def pay(invoice_id, body) do
    url = @base_url <> "/invoices/" <> invoice_id <> "/payments"
    HTTPoison.post(url, Jason.encode!(body), [{"content-type", "application/json"}])
  end

  def refund(id), do: HTTPoison.request(:delete, "http://billing:8080/refunds/#{id}")

  # The URL is only known at run time: kept as an unresolved call.
  def anything(url), do: HTTPoison.get(url)
end

defmodule Shop.Inventory do
  @moduledoc "Calls the inventory service with Req."

  def client do
    Req.new(base_url: System.get_env("INVENTORY_URL"))
  end

  def stock(sku) do
    req = Req.new(base_url: "http://inventory:4000")
    Req.get!(req, url: "/stock/#{sku}")
  end

  def reserve(sku, qty) do
    Req.new(base_url: "http://inventory:4000/api")
    |> Req.post!(url: "/reservations", json: %{sku: sku, qty: qty})
  end

  def catalog, do: Req.get!("http://catalog:4100/products")

  def release(id), do: Req.request(method: :delete, url: "http://inventory:4000/reservations/#{id}")
end

defmodule Shop.Shipping do
  @moduledoc "Calls the shipping service with Finch."

  @shipping "http://shipping:7000"

  def estimate(order) do
    Finch.build(:post, "#{@shipping}/quotes", [], Jason.encode!(order))
    |> Finch.request(Shop.Finch)
  end
end

defmodule Shop.Fraud do
  @moduledoc "Calls the fraud service with Tesla."
  use Tesla

  plug Tesla.Middleware.BaseUrl, "http://fraud:9000"
  plug Tesla.Middleware.JSON

  def check(order_id), do: post("/checks", %{order: order_id})

  def score(order_id) do
    client = Tesla.client([{Tesla.Middleware.BaseUrl, "http://scoring:9100"}])
    Tesla.get(client, "/scores/" <> order_id)
  end
end

defmodule Shop.GithubClient do
  @moduledoc "Calls GitHub through its own HTTPoison.Base client."
  use HTTPoison.Base

  def base_url, do: "https://api.github.com"

  def process_request_url(url), do: base_url() <> url

  def repos(user), do: get!("/users/#{user}/repos")
end
