use shop::orders::order_service_client::OrderServiceClient;

async fn place() -> Result<(), Box<dyn std::error::Error>> {
    let mut client = OrderServiceClient::connect("http://orders:50051").await?.send_compressed(Gzip);
    client.place_order(PlaceOrder::default()).await?;
    Ok(())
}
