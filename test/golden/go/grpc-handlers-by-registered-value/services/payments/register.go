package x

import (
	"context"

	pb "github.com/acme/gen/orders/v1"
)

type orders struct{}

type other struct{}

func (o *orders) PlaceOrder(ctx context.Context, req *pb.PlaceOrderRequest) (*pb.PlaceOrderResponse, error) {
	return nil, nil
}

func (o *other) PlaceOrder(ctx context.Context, req *pb.PlaceOrderRequest) (*pb.PlaceOrderResponse, error) {
	return nil, nil
}

func register(s pb.Registrar) {
	impl := &orders{}
	pb.RegisterOrderServiceServer(s, impl)
}
