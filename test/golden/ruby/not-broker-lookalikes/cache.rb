class Notifier
  def publish(message, routing_key:)
    puts message
  end
end

queue = Queue.new
queue.push('orders')
exchange = Notifier.new
exchange.publish('x', routing_key: 'orders')
TOPIC = 'orders.created'
