package main

import (
	"context"
	"net/http"
	"strings"

	dapr "github.com/dapr/go-sdk/client"
)

const pubsubName = "orderpubsub"

func getEnv(key, fallback string) string {
	if v, ok := os.LookupEnv(key); ok {
		return v
	}
	return fallback
}

var ordersTopic = getEnv("ORDERS_TOPIC", "orders")

func publish(ctx context.Context, client dapr.Client) error {
	return client.PublishEvent(ctx, pubsubName, ordersTopic, []byte("{}"))
}

func publishHTTP() error {
	req, err := http.NewRequest("POST", "http://localhost:3500/v1.0/publish/"+pubsubName+"/payments", strings.NewReader("{}"))
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req)
	return err
}
