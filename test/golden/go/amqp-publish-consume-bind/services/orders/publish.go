package orders

import (
	"context"
	"os"

	amqp "github.com/rabbitmq/amqp091-go"
)

const ordersExchange = "orders"

// Publishes to a named exchange with a routing key, and to a queue through the default exchange.
func publish(ctx context.Context, ch *amqp.Channel, body []byte) error {
	msg := amqp.Publishing{ContentType: "application/json", Body: body}
	if err := ch.PublishWithContext(ctx, ordersExchange, "order.created", false, false, msg); err != nil {
		return err
	}
	q, err := ch.QueueDeclare("invoices", true, false, false, false, nil)
	if err != nil {
		return err
	}
	if err := ch.Publish("", q.Name, false, false, msg); err != nil {
		return err
	}
	return ch.Publish(os.Getenv("AUDIT_EXCHANGE"), "", false, false, msg)
}

// The reply goes where the request says: kept as written, never named after the variable.
func reply(ctx context.Context, ch *amqp.Channel, d amqp.Delivery) error {
	return ch.PublishWithContext(ctx, "", d.ReplyTo, false, false, amqp.Publishing{CorrelationId: d.CorrelationId})
}
