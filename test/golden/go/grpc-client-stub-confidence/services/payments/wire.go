package x

import "github.com/acme/clients"

func wire(s *state) {
	orders := clients.NewOrderServiceClient(s.conn)
	_, _ = orders.PlaceOrder(nil, nil)
	_ = clients.NewBillingClient("http://billing:8080")
}
