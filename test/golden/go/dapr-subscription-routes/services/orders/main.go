package main

import (
	"context"
	"log"

	"github.com/dapr/go-sdk/service/common"
	daprd "github.com/dapr/go-sdk/service/http"
)

const ordersRoute = "/orders"

// The sidecar POSTs every event of the topic to the subscription's route.
var sub = &common.Subscription{
	PubsubName: "orderpubsub",
	Topic:      "orders",
	Route:      ordersRoute,
}

func main() {
	s := daprd.NewService(":6005")
	if err := s.AddTopicEventHandler(sub, handler); err != nil {
		log.Fatal(err)
	}
	refunds := &common.Subscription{PubsubName: "orderpubsub", Topic: "refunds", Route: "refunds"}
	_ = s.AddTopicEventHandler(refunds, handler)
	_ = s.Start()
}

func handler(ctx context.Context, e *common.TopicEvent) (retry bool, err error) {
	return false, nil
}
