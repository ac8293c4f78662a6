require 'bunny'

connection = Bunny.new
connection.start
channel = connection.create_channel
channel.queue('never_used', durable: true)
channel.fanout('also_unused')
replies = channel.queue('', exclusive: true)
replies.subscribe { |_info, _props, body| puts body }
