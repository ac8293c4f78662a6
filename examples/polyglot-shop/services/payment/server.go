package main

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	inventoryv1 "github.com/polyglot-shop/genproto/shop/inventory/v1"
	paymentv1 "github.com/polyglot-shop/genproto/shop/payment/v1"
)

// server implements shop.payment.v1.PaymentService.
type server struct {
	paymentv1.UnimplementedPaymentServiceServer
	store     *settlementStore
	inventory inventoryv1.InventoryServiceClient
}

func (s *server) ProcessPayment(ctx context.Context, req *paymentv1.ProcessPaymentRequest) (*paymentv1.ProcessPaymentResponse, error) {
	if req.GetAmount().GetUnits() <= 0 && req.GetAmount().GetNanos() <= 0 {
		return nil, status.Error(codes.InvalidArgument, "amount must be positive")
	}
	if req.GetPaymentToken() == "" {
		return &paymentv1.ProcessPaymentResponse{
			Status:        paymentv1.PaymentStatus_PAYMENT_STATUS_DECLINED,
			DeclineReason: "missing payment token",
		}, nil
	}
	p := s.store.authorize(req.GetOrderId(), req.GetAmount())
	return &paymentv1.ProcessPaymentResponse{PaymentId: p.PaymentID, Status: p.Status}, nil
}

func (s *server) RefundPayment(ctx context.Context, req *paymentv1.RefundPaymentRequest) (*paymentv1.RefundPaymentResponse, error) {
	p, ok := s.store.get(req.GetPaymentId())
	if !ok {
		return nil, status.Errorf(codes.NotFound, "payment %s not found", req.GetPaymentId())
	}
	// Goods go back on the shelf before the money leaves, so a failed release blocks the refund.
	release := &inventoryv1.ReleaseStockRequest{OrderId: p.OrderID, Reason: req.GetReason()}
	if _, err := s.inventory.ReleaseStock(ctx, release); err != nil {
		return nil, status.Errorf(codes.Unavailable, "release stock for order %s: %v", p.OrderID, err)
	}
	p = s.store.refund(p.PaymentID)
	return &paymentv1.RefundPaymentResponse{PaymentId: p.PaymentID, Status: p.Status}, nil
}

func (s *server) StreamSettlements(req *paymentv1.StreamSettlementsRequest, stream paymentv1.PaymentService_StreamSettlementsServer) error {
	for _, p := range s.store.settledSince(req.GetSinceUnixMs()) {
		if err := stream.Send(p.toSettlement()); err != nil {
			return err
		}
	}
	return nil
}
