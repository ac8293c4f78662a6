require 'net/http'
require 'json'

# Talks to the inventory service.
class InventoryClient
  BASE = ENV.fetch('INVENTORY_URL', 'http://inventory:8080')

  def stock(sku)
    JSON.parse(Net::HTTP.get(URI("#{BASE}/stock/#{sku}")))
  end

  def reserve(sku, quantity)
    uri = URI.parse(BASE + '/reservations')
    Net::HTTP.post(uri, { sku: sku, quantity: quantity }.to_json, 'Content-Type' => 'application/json')
  end

  def release(sku)
    Net::HTTP.start('inventory', 8080) do |http|
      http.request(Net::HTTP::Delete.new("/reservations/#{sku}"))
    end
  end

  def audit(entry)
    http = Net::HTTP.new(ENV['AUDIT_HOST'], 80)
    request = Net::HTTP::Put.new('/audit')
    request.body = entry.to_json
    http.request(request)
  end

  def ping
    Net::HTTP.get('inventory', '/health')
  end
end
