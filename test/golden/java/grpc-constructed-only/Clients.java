package com.shop.grpc;

import io.grpc.ManagedChannel;

class Clients {
    private final PaymentServiceGrpc.PaymentServiceBlockingStub payments;
    private final InventoryServiceGrpc.InventoryServiceBlockingStub inventory;

    Clients(ManagedChannel channel) {
        this.payments = PaymentServiceGrpc.newBlockingStub(channel);
        this.inventory = InventoryServiceGrpc.newBlockingStub(channel);
    }

    void pay(Req request) {
        payments.processPayment(request);
    }
}
