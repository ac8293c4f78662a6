defmodule Shop.Unresolved do
  # A URL given by the caller: a call all the same, listed as unresolved.
  def probe(url), do: HTTPoison.get(url)

  # The quoted function is injected into each module that uses this one: a call there.
  defmacro __using__(_opts) do
    quote do
      def get(path), do: HTTPoison.get(path)
    end
  end

  def orders_base, do: Application.get_env(:shop, :orders_url)

  def order(id), do: Req.get!(orders_base() <> "/orders/#{id}")

  def billing(id), do: Req.get!(Application.fetch_env!(:shop, :billing_url) <> "/invoices/#{id}")
end
