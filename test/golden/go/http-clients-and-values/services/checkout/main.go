package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"

	dapr "github.com/dapr/go-sdk/client"
	"github.com/go-resty/resty/v2"
)

type checkout struct {
	shippingSvcAddr string
	emailSvcAddr    string
	ratesURL        string
	httpClient      *http.Client
}

func mustMapEnv(target *string, envKey string) {
	v := os.Getenv(envKey)
	if v == "" {
		panic(fmt.Sprintf("environment variable %q not set", envKey))
	}
	*target = v
}

func newCheckout() *checkout {
	svc := &checkout{ratesURL: "http://rates:9000/v2", httpClient: &http.Client{}}
	mustMapEnv(&svc.shippingSvcAddr, "SHIPPING_ADDR")
	svc.emailSvcAddr = os.Getenv("EMAIL_ADDR")
	return svc
}

func (cs *checkout) quote(ctx context.Context, id string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, cs.shippingSvcAddr+"/get-quote", nil)
	_, _ = cs.httpClient.Do(req)
	_, _ = http.Post(fmt.Sprintf("http://%s:8080/send/%s", cs.emailSvcAddr, id), "application/json", nil)
	u, _ := url.JoinPath(cs.ratesURL, "rates", id)
	_, _ = cs.httpClient.Get(u)
	_, _ = http.Get("http://" + path.Join("catalog:3550", "products", id))
	_, _ = http.Get(os.Getenv("AUDIT_URL"))
	return nil
}

func (cs *checkout) resty(id string) {
	client := resty.New().SetBaseURL(os.Getenv("CART_URL")).SetTimeout(5)
	_, _ = client.R().SetBody(id).Post("/cart/" + id)
	_, _ = resty.New().R().Get("http://ads:9555/ads")
	_, _ = client.R().Execute("DELETE", "/cart/"+id)
}

func (cs *checkout) invoke(ctx context.Context, order []byte) {
	client, _ := dapr.NewClient()
	_, _ = client.InvokeMethod(ctx, "order-processor", "orders", "post")
	_, _ = client.InvokeMethodWithContent(ctx, "inventory", "stock/reserve", "PUT", &dapr.DataContent{Data: order})
	_, _ = http.Get("http://localhost:3500/v1.0/invoke/payments/method/charge/" + string(order))
}
