package search

import (
	"github.com/go-redis/redis"
	"github.com/nats-io/nats.go"
)

// nats.go's older JetStream context and go-redis before v8 take no context.
func legacy(js nats.JetStreamContext, rdb *redis.Client) {
	js.Subscribe("ORDERS.placed", func(m *nats.Msg) {}, nats.Durable("search"))
	rdb.Publish("search.reindex", "all")
}
