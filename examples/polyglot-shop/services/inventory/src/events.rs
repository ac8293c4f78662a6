use std::sync::Arc;
use std::time::Duration;

use rdkafka::consumer::{CommitMode, Consumer, StreamConsumer};
use rdkafka::error::KafkaError;
use rdkafka::producer::{FutureProducer, FutureRecord};
use rdkafka::{ClientConfig, Message};
use serde::{Deserialize, Serialize};

use crate::stock::StockBook;

const PAYMENTS_SETTLED_TOPIC: &str = "payments.settled";
const STOCK_RESERVED_TOPIC: &str = "stock.reserved";
const WAREHOUSE: &str = "ams-1";

#[derive(Deserialize, Serialize, Clone)]
struct Item {
    sku: String,
    quantity: i64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PaymentSettled {
    order_id: String,
    customer_id: String,
    items: Vec<Item>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StockReserved<'a> {
    order_id: &'a str,
    customer_id: &'a str,
    warehouse: &'a str,
    items: &'a [Item],
}

/// Reserves stock for each settled payment and announces the reservation. Orders whose stock
/// cannot be reserved are left for the operator (see docs/runbooks).
pub async fn run(brokers: &str, book: Arc<StockBook>) -> Result<(), KafkaError> {
    let consumer: StreamConsumer = ClientConfig::new()
        .set("bootstrap.servers", brokers)
        .set("group.id", "inventory")
        .set("enable.auto.commit", "false")
        .create()?;
    let producer: FutureProducer = ClientConfig::new().set("bootstrap.servers", brokers).create()?;
    consumer.subscribe(&[PAYMENTS_SETTLED_TOPIC])?;

    loop {
        let msg = consumer.recv().await?;
        let settled: PaymentSettled = match msg.payload().map(serde_json::from_slice) {
            Some(Ok(event)) => event,
            _ => {
                tracing::warn!(offset = msg.offset(), "skipping malformed settlement");
                consumer.commit_message(&msg, CommitMode::Async)?;
                continue;
            }
        };

        let items: Vec<(String, i64)> = settled.items.iter().map(|i| (i.sku.clone(), i.quantity)).collect();
        match book.reserve(&settled.order_id, &items) {
            Ok(()) => {
                let body = serde_json::to_string(&StockReserved {
                    order_id: &settled.order_id,
                    customer_id: &settled.customer_id,
                    warehouse: WAREHOUSE,
                    items: &settled.items,
                })
                .expect("event serialises");
                let key = settled.order_id.as_str();
                let delivery = producer.send(FutureRecord::to(STOCK_RESERVED_TOPIC).key(key).payload(&body), Duration::from_secs(5));
                delivery.await.map_err(|(err, _)| err)?;
            }
            Err(short) => tracing::error!(order_id = %settled.order_id, sku = %short.sku, "insufficient stock"),
        }
        consumer.commit_message(&msg, CommitMode::Async)?;
    }
}
