package web

import (
	"github.com/nats-io/nats.go"
	"github.com/redis/go-redis/v9"
)

type bus struct{}

func (bus) Publish() {}

// Library imported, but the calls do not have the library's shape: no destination argument.
func shapes(nc *nats.Conn, rdb *redis.Client, b bus) {
	b.Publish()
	nc.Flush()
	rdb.Ping(nil)
}
