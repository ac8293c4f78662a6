package main

import (
	"net/http"
	"strings"
)

// Look-alikes of a Dapr sidecar call: `req` carries a header of another name and keeps the URL it names;
// the dapr-app-id header set on `other` routes only `other`; a header set in another function routes
// nothing built here.
func placeOrder(order string) error {
	req, err := http.NewRequest("POST", "http://localhost:3500/orders", strings.NewReader(order))
	if err != nil {
		return err
	}
	req.Header.Add("x-app-id", "order-processor")
	other, _ := http.NewRequest("GET", "http://localhost:3500/health", nil)
	other.Header.Set("dapr-app-id", "order-processor")
	_, err = http.DefaultClient.Do(req)
	return err
}

func elsewhere(req *http.Request) {
	req.Header.Set("dapr-app-id", "order-processor")
}
