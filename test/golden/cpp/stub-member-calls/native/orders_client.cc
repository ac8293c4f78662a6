class OrdersClient {
 public:
  void Place();

 private:
  std::unique_ptr<OrderService::Stub> stub_;
};

void OrdersClient::Place() {
  stub_->PlaceOrder(&ctx_, req_, &resp_);
}

void Audit(Other& other) {
  other.stub_->PlaceOrder(nullptr, {}, nullptr);
  stub_->PrepareAsyncCancelOrder(nullptr, {}, nullptr);
}
