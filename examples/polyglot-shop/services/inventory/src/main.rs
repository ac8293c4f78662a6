//! Inventory: owns stock per SKU, serves `shop.inventory.v1.InventoryService` over gRPC, a small
//! read-only HTTP API, and reserves stock for every settled payment.

mod events;
mod grpc;
mod http;
mod stock;

pub mod pb {
    tonic::include_proto!("shop.inventory.v1");
}

use std::sync::Arc;

use tonic::transport::Server;

use crate::grpc::InventoryApi;
use crate::pb::inventory_service_server::InventoryServiceServer;
use crate::stock::StockBook;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt::init();
    let book = Arc::new(StockBook::seeded());

    let brokers = std::env::var("KAFKA_BROKERS").unwrap_or_else(|_| "kafka:9092".to_string());
    let events_book = book.clone();
    tokio::spawn(async move {
        if let Err(err) = events::run(&brokers, events_book).await {
            tracing::error!(%err, "settlement consumer stopped");
        }
    });

    let listener = tokio::net::TcpListener::bind("0.0.0.0:8081").await?;
    let router = http::router(book.clone());
    tokio::spawn(async move { axum::serve(listener, router).await });

    Server::builder()
        .add_service(InventoryServiceServer::new(InventoryApi::new(book)))
        .serve("0.0.0.0:50052".parse()?)
        .await?;
    Ok(())
}
