require 'httparty'

class PaymentsClient
  include HTTParty
  base_uri ENV['PAYMENTS_URL']

  def self.charge(order_id, amount)
    post("/charges/#{order_id}", body: { amount: amount }.to_json)
  end

  def refund(charge_id)
    self.class.delete("/charges/#{charge_id}")
  end
end

class Checkout
  def pay(order)
    PaymentsClient.get("/charges/#{order.id}")
    HTTParty.get('http://fraud:8000/score', query: { order: order.id })
  end
end
