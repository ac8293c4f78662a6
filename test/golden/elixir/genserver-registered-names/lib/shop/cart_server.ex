defmodule Shop.CartServer do
  @moduledoc """
  Keeps each shopper's cart in memory.

  One process per node, registered under the module name.
  """
  use GenServer
  alias Shop.{Cart, Catalog}
  require Logger

  @typedoc "A cart line: SKU and quantity."
  @type line :: {String.t(), pos_integer()}

  defstruct carts: %{}, hits: 0

  @doc "Starts the cart server."
  @spec start_link(keyword()) :: GenServer.on_start()
  def start_link(opts \\ []) do
    GenServer.start_link(__MODULE__, opts, name: Keyword.get(opts, :name, __MODULE__))
  end

  # Looks a cart up; nil when the shopper has none.
  def lookup(server \\ __MODULE__, shopper) do
    GenServer.call(server, {:get, shopper})
  end

  @impl true
  def init(_opts), do: {:ok, %__MODULE__{}}

  @impl true
  def handle_call({:get, shopper}, _from, state) do
    {:reply, Map.get(state.carts, shopper), state}
  end

  def handle_call(:stats, _from, state), do: {:reply, state.hits, state}

  defp log(message), do: Logger.debug(message)
end

defmodule Shop.PriceCache do
  @moduledoc false
  use Agent

  def start_link(_) do
    Agent.start_link(
      fn -> %{} end,
      name: {:global, :price_cache}
    )
  end
end

defmodule Shop.Sessions do
  def start_link do
    GenServer.start_link(Shop.Session, [], name: {:via, Registry, {Shop.SessionRegistry, :sessions}})
  end

  # One process per shopper: the name is computed, so it is no symbol.
  def start_link(shopper) do
    GenServer.start_link(Shop.Session, shopper, name: {:via, Registry, {Shop.SessionRegistry, shopper}})
  end
end
