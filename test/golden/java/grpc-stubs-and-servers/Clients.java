
import shop.inventory.v1.InventoryServiceGrpc.InventoryServiceImplBase;
class Clients {
    private final PaymentServiceGrpc.PaymentServiceFutureStub futures = PaymentServiceGrpc.newFutureStub(channel);
    @GrpcClient("inventory")
    private InventoryServiceGrpc.InventoryServiceBlockingStub inventory;
    Clients() {
        var async = PaymentServiceGrpc.newStub(channel);
        async.refundPayment(request, observer);
    }
    void call() {
        inventory.reserveStock(request);
        futures.processPayment(request);
        PaymentServiceGrpc.newBlockingStub(channel).processPayment(request);
        HealthGrpc.newBlockingStub(channel).check(request);
    }
}
class Inventory extends InventoryServiceImplBase {
    @Override
    public void reserveStock(Req r, StreamObserver<Res> o) {}
}
class Payments implements PaymentServiceGrpc.AsyncService {
    public void processPayment(Req r, StreamObserver<Res> o) {}
    private void helper() {}
}