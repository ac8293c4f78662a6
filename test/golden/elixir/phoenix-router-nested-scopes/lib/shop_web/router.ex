defmodule ShopWeb.Router do
  @moduledoc "Routes of the storefront and its JSON API."
  use ShopWeb, :router

  pipeline :api do
    plug :accepts, ["json"]
  end

  scope "/", ShopWeb do
    pipe_through :browser

    get "/", PageController, :home
    live "/cart", CartLive, :show

    live_session :authenticated, on_mount: ShopWeb.Auth do
      live "/account/orders/:id", OrderLive.Show
    end
  end

  scope "/api", ShopWeb.Api, as: :api do
    pipe_through :api

    resources "/users", UserController, only: [:index, :show] do
      resources "/orders", OrderController, except: [:new, :edit, :delete]
    end

    scope "/v2" do
      resources "/products", ProductController, param: "sku", except: [:new, :edit]
      resources "/session", SessionController, singleton: true, only: [:show, :delete]
      match :*, "/webhooks/:provider", WebhookController, :receive
      patch "/carts/:cart_id/items/:id", CartItemController, :update
    end
  end

  scope path: "/admin", alias: ShopWeb.Admin do
    forward "/jobs", JobDashboard
  end

  if Application.compile_env(:shop, :dev_routes) do
    import Phoenix.LiveDashboard.Router

    scope "/dev" do
      live_dashboard "/dashboard", metrics: ShopWeb.Telemetry
    end
  end

  # Route helpers are generated; this one only reads a map.
  def get(routes, name), do: Map.get(routes, name)
end
