package x

import (
	"net/http"

	cache "github.com/acme/cache"
)

// Types named Client that are not net/http's: their Get and Post send nothing.
type Client struct{ prefix string }

func (c *Client) Get(key string) (string, error)  { return c.prefix + key, nil }
func (c Client) Post(key, value string) error     { return nil }

type holder struct {
	client *Client
	remote *cache.Client
}

func lookups(h holder, c cache.Client) {
	local := &Client{prefix: "http://orders:8080"}
	_, _ = local.Get("http://orders:8080/orders")
	_ = Client{}.Post("http://cart:8080/cart", "x")
	_, _ = h.client.Get("http://ads:9555/ads")
	_, _ = h.remote.Get("http://ads:9555/ads")
	_, _ = c.Get("http://shipping:50051/quote")
	_ = http.StatusOK
}
