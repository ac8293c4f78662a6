class Jobs
  def run(client, request)
    Rest.get('/orders')
    client.execute(method: :put, url: '/orders')
    request.execute
  end
end
