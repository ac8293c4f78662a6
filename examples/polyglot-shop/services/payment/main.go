// Command payment authorises and settles order payments (gRPC PaymentService) and turns
// orders.created events into payments.settled events.
package main

import (
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	inventoryv1 "github.com/polyglot-shop/genproto/shop/inventory/v1"
	paymentv1 "github.com/polyglot-shop/genproto/shop/payment/v1"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	conn, err := grpc.NewClient(os.Getenv("INVENTORY_GRPC_ADDR"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatalf("dial inventory: %v", err)
	}
	defer conn.Close()

	store := newSettlementStore()
	srv := &server{store: store, inventory: inventoryv1.NewInventoryServiceClient(conn)}

	grpcServer := grpc.NewServer()
	paymentv1.RegisterPaymentServiceServer(grpcServer, srv)
	healthpb.RegisterHealthServer(grpcServer, health.NewServer())

	lis, err := net.Listen("tcp", ":50051")
	if err != nil {
		log.Fatalf("listen: %v", err)
	}
	go func() {
		if err := grpcServer.Serve(lis); err != nil {
			log.Fatalf("grpc serve: %v", err)
		}
	}()

	go runSettlementPipeline(ctx, store)

	mux := http.NewServeMux()
	registerRoutes(mux, store)
	httpServer := &http.Server{Addr: ":8080", Handler: mux}
	go func() {
		if err := httpServer.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Fatalf("http serve: %v", err)
		}
	}()

	<-ctx.Done()
	_ = httpServer.Shutdown(context.Background())
	grpcServer.GracefulStop()
}
