package catalog

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/redis/go-redis/v9"
)

const priceSubject = "catalog.price.changed"

func natsCore(nc *nats.Conn) error {
	if err := nc.Publish(priceSubject, []byte("{}")); err != nil {
		return err
	}
	if _, err := nc.Request("inventory.check", nil, time.Second); err != nil {
		return err
	}
	_, err := nc.QueueSubscribe("catalog.import.*", "importers", func(m *nats.Msg) {})
	return err
}

func jetStream(ctx context.Context, nc *nats.Conn) error {
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	if _, err := js.Publish(ctx, "ORDERS.placed", []byte("{}")); err != nil {
		return err
	}
	_, err = js.CreateOrUpdateConsumer(ctx, "ORDERS", jetstream.ConsumerConfig{
		Durable:       "catalog",
		FilterSubject: "ORDERS.cancelled",
	})
	return err
}

func redisPubSub(ctx context.Context, rdb *redis.Client, channel string) {
	rdb.Publish(ctx, "cache.invalidate", "sku-1")
	sub := rdb.Subscribe(ctx, "cache.invalidate", "cache.flush")
	defer sub.Close()
	rdb.PSubscribe(ctx, channel)
}

func redisStreams(ctx context.Context, rdb *redis.Client) {
	rdb.XAdd(ctx, &redis.XAddArgs{Stream: "catalog-events", Values: map[string]any{"sku": "1"}})
	rdb.XReadGroup(ctx, &redis.XReadGroupArgs{
		Group:    "search",
		Consumer: "search-1",
		Streams:  []string{"catalog-events", ">"},
	})
}
