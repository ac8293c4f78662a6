class PaymentsWorker
  include Sneakers::Worker
  from_queue 'payments', exchange: 'billing', routing_key: ['payment.done', 'payment.failed']

  def work(message)
    Sneakers::Publisher.new.publish(message, to_queue: 'receipts')
    ack!
  end
end

class MailWorker
  include Sneakers::Worker
  from_queue 'mail'

  def work(message)
    ack!
  end
end
