package main

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	inventoryv1 "github.com/polyglot-shop/genproto/shop/inventory/v1"
	paymentv1 "github.com/polyglot-shop/genproto/shop/payment/v1"
)

// fakeInventory stands in for the inventory service so refunds can be tested in isolation.
type fakeInventory struct {
	inventoryv1.UnimplementedInventoryServiceServer
	released []string
}

func (f *fakeInventory) ReleaseStock(_ context.Context, req *inventoryv1.ReleaseStockRequest) (*inventoryv1.ReleaseStockResponse, error) {
	f.released = append(f.released, req.GetOrderId())
	return &inventoryv1.ReleaseStockResponse{OrderId: req.GetOrderId(), ReleasedUnits: 1}, nil
}

func dialFakeInventory(t *testing.T, fake *fakeInventory) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	s := grpc.NewServer()
	inventoryv1.RegisterInventoryServiceServer(s, fake)
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)

	dialer := func(context.Context, string) (net.Conn, error) { return lis.Dial() }
	conn, err := grpc.NewClient("passthrough:///bufnet", grpc.WithContextDialer(dialer), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func TestRefundReleasesStockFirst(t *testing.T) {
	fake := &fakeInventory{}
	store := newSettlementStore()
	srv := &server{store: store, inventory: inventoryv1.NewInventoryServiceClient(dialFakeInventory(t, fake))}

	amount := &paymentv1.Money{CurrencyCode: "EUR", Units: 42}
	p := store.authorize("order-1", amount)
	resp, err := srv.RefundPayment(context.Background(), &paymentv1.RefundPaymentRequest{PaymentId: p.PaymentID, Reason: "damaged"})
	if err != nil {
		t.Fatalf("refund: %v", err)
	}
	if resp.GetStatus() != paymentv1.PaymentStatus_PAYMENT_STATUS_REFUNDED {
		t.Errorf("status = %v, want REFUNDED", resp.GetStatus())
	}
	if len(fake.released) != 1 || fake.released[0] != "order-1" {
		t.Errorf("released = %v, want [order-1]", fake.released)
	}
}
