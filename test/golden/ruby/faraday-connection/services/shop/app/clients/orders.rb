require 'faraday'

class OrdersClient
  def initialize
    @conn = Faraday.new(url: ENV.fetch('ORDERS_URL') { 'http://orders:3000' }) do |f|
      f.request :json
      f.response :json
    end
  end

  def find(id)
    @conn.get("/api/orders/#{id}").body
  end

  def create(order)
    @conn.post('/api/orders', order)
  end

  def patch(id, changes)
    @conn.run_request(:patch, "/api/orders/#{id}", changes, {})
  end

  def catalog
    conn = Faraday.new('http://catalog:8080/v1')
    conn.get('items')
    Faraday.get('http://pricing:9000/prices')
  end
end
