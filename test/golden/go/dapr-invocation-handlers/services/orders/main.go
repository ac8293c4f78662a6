package main

import (
	"context"
	"log"

	"github.com/dapr/go-sdk/service/common"
	daprd "github.com/dapr/go-sdk/service/http"
)

const statusMethod = "status"

func main() {
	s := daprd.NewService(":8080")
	if err := s.AddServiceInvocationHandler("/orders", ordersHandler); err != nil {
		log.Fatalf("error adding invocation handler: %v", err)
	}
	register(s)
	if err := s.Start(); err != nil {
		log.Fatal(err)
	}
}

// The method name may be given without its leading slash, or through a constant.
func register(s common.Service) {
	_ = s.AddServiceInvocationHandler("echo", echoHandler)
	_ = s.AddServiceInvocationHandler(statusMethod, echoHandler)
}

func ordersHandler(ctx context.Context, in *common.InvocationEvent) (*common.Content, error) {
	return &common.Content{Data: in.Data, ContentType: in.ContentType}, nil
}

func echoHandler(ctx context.Context, in *common.InvocationEvent) (*common.Content, error) {
	return &common.Content{Data: in.Data}, nil
}
