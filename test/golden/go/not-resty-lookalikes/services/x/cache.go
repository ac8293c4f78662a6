package x

import (
	"github.com/go-resty/resty/v2"
)

// A file that uses resty also has its own request builder with resty's method names: only requests
// started from a resty client are calls.
type query struct{ table string }

func (q query) Get(key string) string  { return q.table + key }
func (q query) Post(key string) string { return q.table + key }

type store struct{}

func (store) R() query { return query{table: "orders"} }

func newClient() *resty.Client {
	return resty.New().SetBaseURL("http://orders:8080")
}

func lookups(db store) {
	_ = db.R().Get("/orders/1")
	s := store{}
	_ = s.R().Post("http://orders:8080/orders")
}
