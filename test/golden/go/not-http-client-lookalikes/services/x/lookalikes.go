package x

import (
	"context"

	http "github.com/acme/fakehttp"
	"github.com/redis/go-redis/v9"
)

type invoker struct{}

func (invoker) InvokeMethod(ctx context.Context, app, method, verb string) {}

type builder struct{}

func (builder) R() builder            { return builder{} }
func (builder) Get(url string) error  { return nil }
func (builder) Post(url string) error { return nil }

func lookalikes(ctx context.Context, rdb *redis.Client, b builder, inv invoker) {
	// A package named http that is not net/http.
	_, _ = http.Get("http://orders:8080/orders")
	// A key-value get on a redis client.
	rdb.Get(ctx, "http://cart:8080/cart")
	// A request-builder shape without resty.
	_ = b.R().Get("http://ads:9555/ads")
	// An InvokeMethod that is not Dapr's.
	inv.InvokeMethod(ctx, "orders", "create", "post")
}
