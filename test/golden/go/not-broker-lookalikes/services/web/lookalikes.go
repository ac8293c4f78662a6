package web

import (
	"context"
)

type cache struct{}

func (cache) Publish(ctx context.Context, channel string, msg string) {}
func (cache) Subscribe(topic string, qos byte, cb func()) {}

const ordersTopic = "orders.created"

// Method names of messaging clients on objects of no messaging library.
func lookalikes(ctx context.Context, c cache) {
	c.Publish(ctx, "cache.invalidate", "x")
	c.Subscribe("devices/+/commands", 1, nil)
	_ = ordersTopic
	_ = map[string]string{"pubsubname": "orderpubsub", "topic": "orders"}
}
