package setup

import (
	amqp "github.com/rabbitmq/amqp091-go"
)

// Declaring exchanges and queues (even binding them) publishes and consumes nothing.
func declare(ch *amqp.Channel) error {
	if err := ch.ExchangeDeclare("orders", "topic", true, false, false, false, nil); err != nil {
		return err
	}
	q, err := ch.QueueDeclare("billing.orders", true, false, false, false, nil)
	if err != nil {
		return err
	}
	return ch.QueueBind(q.Name, "order.*", "orders", false, nil)
}
