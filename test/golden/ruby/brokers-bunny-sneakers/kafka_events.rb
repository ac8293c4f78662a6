require 'kafka'

kafka = Kafka.new(['kafka:9092'])
kafka.deliver_message('hello', topic: 'greetings')
producer = kafka.producer
producer.produce('x', topic: 'page-views')
consumer = kafka.consumer(group_id: 'g')
consumer.subscribe('page-views')
kafka.each_message(topic: 'greetings') { |message| puts message.value }
