package main

import (
	"context"
	"encoding/json"
	"log"
	"os"
	"strings"
	"time"

	"github.com/segmentio/kafka-go"
)

const (
	ordersCreatedTopic   = "orders.created"
	paymentsSettledTopic = "payments.settled"
)

type lineItem struct {
	SKU      string `json:"sku"`
	Quantity int32  `json:"quantity"`
}

type orderCreated struct {
	OrderID    string     `json:"orderId"`
	CustomerID string     `json:"customerId"`
	PaymentID  string     `json:"paymentId"`
	Items      []lineItem `json:"items"`
}

type paymentSettled struct {
	OrderID         string     `json:"orderId"`
	CustomerID      string     `json:"customerId"`
	PaymentID       string     `json:"paymentId"`
	Items           []lineItem `json:"items"`
	SettledAtUnixMs int64      `json:"settledAtUnixMs"`
}

// runSettlementPipeline captures the authorised payment of every new order and announces the
// settlement; an offset is committed only after the settlement event is written.
func runSettlementPipeline(ctx context.Context, store *settlementStore) {
	brokers := strings.Split(os.Getenv("KAFKA_BROKERS"), ",")
	reader := kafka.NewReader(kafka.ReaderConfig{Brokers: brokers, GroupID: "payment", Topic: ordersCreatedTopic})
	defer reader.Close()
	writer := &kafka.Writer{Addr: kafka.TCP(brokers...), Balancer: &kafka.Hash{}, RequiredAcks: kafka.RequireAll}
	defer writer.Close()

	for {
		msg, err := reader.FetchMessage(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Printf("fetch: %v", err)
			time.Sleep(time.Second)
			continue
		}

		var evt orderCreated
		if err := json.Unmarshal(msg.Value, &evt); err != nil {
			log.Printf("skipping malformed order event at offset %d: %v", msg.Offset, err)
			_ = reader.CommitMessages(ctx, msg)
			continue
		}

		p, ok := store.settle(evt.PaymentID)
		if !ok {
			log.Printf("order %s refers to unknown payment %s", evt.OrderID, evt.PaymentID)
			_ = reader.CommitMessages(ctx, msg)
			continue
		}

		body, _ := json.Marshal(paymentSettled{evt.OrderID, evt.CustomerID, p.PaymentID, evt.Items, p.SettledAt.UnixMilli()})
		err = writer.WriteMessages(ctx, kafka.Message{Topic: paymentsSettledTopic, Key: []byte(evt.OrderID), Value: body})
		if err != nil {
			log.Printf("publish settlement of order %s: %v", evt.OrderID, err)
			continue
		}
		_ = reader.CommitMessages(ctx, msg)
	}
}
