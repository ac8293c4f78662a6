package main

import (
	"context"

	pb "github.com/acme/shop/genproto"
	"google.golang.org/grpc"
)

type checkout struct {
	cartClient     pb.CartServiceClient
	shippingClient pb.ShippingServiceClient
	emailClient    pb.EmailServiceClient
}

func main() {
	conn, _ := grpc.NewClient("cart:7070")
	svc := &checkout{}
	svc.cartClient = pb.NewCartServiceClient(conn)
	// Built for a feature that calls the service over HTTP instead: no RPC is ever made.
	svc.shippingClient = pb.NewShippingServiceClient(conn)
	svc.emailClient = pb.NewEmailServiceClient(conn)
}

func (cs *checkout) getCart(ctx context.Context, user string) error {
	_, err := cs.cartClient.GetCart(ctx, &pb.GetCartRequest{UserId: user})
	return err
}
