package ledger

import (
	"context"

	"cloud.google.com/go/pubsub"
)

func publish(ctx context.Context, client *pubsub.Client) {
	topic := client.Topic("ledger-entries")
	topic.Publish(ctx, &pubsub.Message{Data: []byte("{}")})
}

func receive(ctx context.Context, client *pubsub.Client) error {
	return client.Subscription("projects/acme/subscriptions/ledger-audit").Receive(ctx, func(ctx context.Context, m *pubsub.Message) {})
}
