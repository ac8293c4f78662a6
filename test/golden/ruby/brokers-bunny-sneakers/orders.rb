require 'bunny'

class OrderEvents
  attr_reader :exchange, :audit

  def initialize
    connection = Bunny.new(ENV.fetch('AMQP_URL', 'amqp://localhost'))
    connection.start
    @channel = connection.create_channel
    @exchange = @channel.topic(ENV.fetch('ORDERS_EXCHANGE', 'orders'))
    @audit = @channel.queue('audit', durable: true)
  end

  def created(order)
    exchange.publish(order.to_json, routing_key: 'order.created')
    @channel.default_exchange.publish('x', routing_key: audit.name)
  end

  def reply(properties, body)
    @channel.default_exchange.publish(body, routing_key: properties.reply_to)
  end

  def listen
    billing = @channel.queue('billing')
    billing.bind(exchange, routing_key: 'order.*')
    billing.subscribe(manual_ack: true) { |_info, _props, body| puts body }
    replies = @channel.queue('', exclusive: true)
    replies.subscribe { |_info, _props, body| puts body }
    logs = @channel.fanout('logs')
    mine = @channel.temporary_queue
    mine.bind(logs)
    mine.subscribe(block: true) { |_info, _props, body| puts body }
  end
end
