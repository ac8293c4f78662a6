package main

import (
	"fmt"
	"net/http"
	"os"
	"strings"
)

// Calls go to the local Dapr sidecar, which routes them to the app the dapr-app-id header names.
func placeOrder(order string) error {
	daprHost := os.Getenv("DAPR_HOST")
	if daprHost == "" {
		daprHost = "http://localhost"
	}
	daprHttpPort := os.Getenv("DAPR_HTTP_PORT")
	if daprHttpPort == "" {
		daprHttpPort = "3500"
	}
	client := &http.Client{}
	req, err := http.NewRequest("POST", daprHost+":"+daprHttpPort+"/orders", strings.NewReader(order))
	if err != nil {
		return err
	}
	req.Header.Add("dapr-app-id", "order-processor")
	_, err = client.Do(req)
	return err
}

const inventoryApp = "inventory"

func checkStock(sku string) error {
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("http://localhost:3500/stock/%s", sku), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Dapr-App-Id", inventoryApp)
	_, err = http.DefaultClient.Do(req)
	return err
}
