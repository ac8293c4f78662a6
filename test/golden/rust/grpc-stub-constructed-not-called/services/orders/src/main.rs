use pb::inventory_service_client::InventoryServiceClient;
use pb::billing_service_client::BillingServiceClient;

async fn place() -> Result<(), Box<dyn std::error::Error>> {
    let mut inventory = InventoryServiceClient::connect("http://inventory:50051").await?;
    inventory.reserve(tonic::Request::new(())).await?;
    // Connected at start-up, never asked anything.
    let _billing = BillingServiceClient::connect("http://billing:50051").await?;
    Ok(())
}
