
class Clients(channel: ManagedChannel) {
    @GrpcClient("inventory")
    private lateinit var inventory: InventoryServiceGrpc.InventoryServiceBlockingStub
    private val payments = PaymentServiceGrpc.newBlockingStub(channel)
    private val health = HealthGrpc.newBlockingStub(channel)

    fun call() {
        inventory.reserveStock(request)
        payments.withDeadlineAfter(1, TimeUnit.SECONDS).processPayment(request)
        health.check(request)
    }
}