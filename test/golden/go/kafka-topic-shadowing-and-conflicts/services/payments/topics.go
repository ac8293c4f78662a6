package x

import (
	"os"

	"github.com/segmentio/kafka-go"
)

const ordersTopic = "orders.created"

func shadowed(ordersTopic string) kafka.Message {
	return kafka.Message{Topic: ordersTopic}
}

func conflicting(retry bool) kafka.Message {
	t := "orders.created"
	if retry {
		t = "orders.retry"
	}
	return kafka.Message{Topic: t}
}

func fromEnv() kafka.Message {
	return kafka.Message{Topic: os.Getenv("ORDERS_TOPIC")}
}

func resolved() kafka.Message {
	return kafka.Message{Topic: ordersTopic}
}
