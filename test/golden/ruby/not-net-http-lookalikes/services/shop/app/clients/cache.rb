# Things that only look like Net::HTTP calls.
class CacheReader
  def initialize(redis, client)
    @redis = redis
    @client = client
  end

  def read(key)
    @redis.get("orders/#{key}")
    settings = { get: '/orders' }
    settings.fetch(:get)
    @client.request(Object.new)
    request = Struct.new(:path).new('/orders')
    note = 'Net::HTTP.get(URI("http://orders/x"))'
    # Net::HTTP.post(URI('http://orders/y'), '')
  end
end
