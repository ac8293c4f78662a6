class Settings
  def initialize(store)
    @store = store
    @conn = ActiveRecord::Base.connection
  end

  # A store, a database connection and a response: none sends a request.
  def read
    @store.get('/orders')
    @conn.delete('/orders')
    response = Faraday::Response.new
    response.get('/x')
  end
end
