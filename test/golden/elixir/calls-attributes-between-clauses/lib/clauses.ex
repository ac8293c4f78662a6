defmodule Demo.Clauses do
  use GenServer

  @impl true
  def handle_call(:state, _from, state), do: {:reply, state, state}

  @impl true
  def handle_call(:other, _from, state) do
    {:reply, helper(state), state}
  end

  defp helper(state), do: state
end
