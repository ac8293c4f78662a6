package main

import (
	"context"

	"github.com/dapr/go-sdk/service/common"
	daprd "github.com/dapr/go-sdk/service/http"
)

var sub = &common.Subscription{PubsubName: "orderpubsub", Topic: "orders", Route: "/orders"}

func main() {
	s := daprd.NewService(":6002")
	_ = s.AddTopicEventHandler(sub, handler)
	_ = s.Start()
}

func handler(ctx context.Context, e *common.TopicEvent) (bool, error) { return false, nil }
