package main

import (
	"context"

	"github.com/dapr/go-sdk/service/common"
	daprd "github.com/dapr/go-sdk/service/grpc"
)

// The gRPC service receives events through its callback: a Route here is no HTTP route of the app.
var sub = &common.Subscription{PubsubName: "orderpubsub", Topic: "orders", Route: "/orders"}

// A struct of the same name from another package is not a Dapr subscription.
type Subscription struct{ Route string }

var local = Subscription{Route: "/local"}

func main() {
	s, _ := daprd.NewService(":50001")
	_ = s.AddTopicEventHandler(sub, handler)
}

func handler(ctx context.Context, e *common.TopicEvent) (retry bool, err error) {
	return false, nil
}
