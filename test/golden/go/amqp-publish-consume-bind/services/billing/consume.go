package billing

import (
	"os"

	"github.com/streadway/amqp"
)

// A named queue bound to an exchange for two keys read from a list.
func consumeOrders(ch *amqp.Channel) (<-chan amqp.Delivery, error) {
	q, err := ch.QueueDeclare("billing.orders", true, false, false, false, nil)
	if err != nil {
		return nil, err
	}
	for _, key := range []string{"order.created", "order.cancelled"} {
		if err := ch.QueueBind(q.Name, key, "orders", false, nil); err != nil {
			return nil, err
		}
	}
	return ch.Consume(q.Name, "billing", false, false, false, false, nil)
}

// A server-named queue bound with keys from the command line: one fact, without a key.
func consumeLogs(ch *amqp.Channel) (<-chan amqp.Delivery, error) {
	q, err := ch.QueueDeclare("", false, false, true, false, nil)
	if err != nil {
		return nil, err
	}
	for _, s := range os.Args[1:] {
		if err := ch.QueueBind(q.Name, s, "logs_direct", false, nil); err != nil {
			return nil, err
		}
	}
	return ch.Consume(q.Name, "", true, false, false, false, nil)
}

// A queue bound to nothing is its own topic; a server-named reply queue bound to nothing gives no fact.
func consumeWork(ch *amqp.Channel) error {
	if _, err := ch.Consume("invoices", "", false, false, false, false, nil); err != nil {
		return err
	}
	replies, err := ch.QueueDeclare("", false, false, true, false, nil)
	if err != nil {
		return err
	}
	_, err = ch.Consume(replies.Name, "", true, false, false, false, nil)
	return err
}
