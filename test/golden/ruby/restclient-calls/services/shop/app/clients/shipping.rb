require 'rest-client'

module Shipping
  BASE_URL = ENV['SHIPPING_URL'] || 'http://shipping:50051'

  def self.quote(address)
    RestClient.post("#{BASE_URL}/quotes", address.to_json, content_type: :json)
  end

  def self.track(id)
    RestClient::Request.execute(method: :get, url: format('%s/shipments/%s', BASE_URL, id), timeout: 5)
  end

  def self.labels
    RestClient::Resource.new('http://labels:7000/labels').get
  end
end
