defmodule Shop.Application do
  @moduledoc false
  use Application

  @impl true
  def start(_type, _args) do
    children = [
      {Registry, keys: :unique, name: Shop.SessionRegistry},
      {Phoenix.PubSub, name: Shop.PubSub},
      Shop.CartServer,
      {Task.Supervisor, name: Shop.TaskSupervisor}
    ]

    opts = [strategy: :one_for_one, name: Shop.Supervisor]
    Supervisor.start_link(children, opts)
  end
end
