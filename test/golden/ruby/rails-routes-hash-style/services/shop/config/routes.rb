Rails.application.routes.draw do
  get 'health' => 'status#show'
  namespace :api do
    post 'orders/:id/cancel' => 'orders#cancel', as: :cancel_order
    match 'search' => 'search#index', via: [:get, :post]
  end
end
