use lapin::{options::*, types::FieldTable, BasicProperties, Channel};

const ORDERS: &str = "orders";

async fn run(channel: &Channel, body: &[u8]) -> lapin::Result<()> {
    channel
        .basic_publish(ORDERS, "order.created", BasicPublishOptions::default(), body, BasicProperties::default())
        .await?;
    let queue = channel
        .queue_declare("billing.orders", QueueDeclareOptions::default(), FieldTable::default())
        .await?;
    channel
        .queue_bind(queue.name().as_str(), ORDERS, "order.*", QueueBindOptions::default(), FieldTable::default())
        .await?;
    let _consumer = channel
        .basic_consume(queue.name().as_str(), "billing", BasicConsumeOptions::default(), FieldTable::default())
        .await?;
    let replies = channel
        .queue_declare("", QueueDeclareOptions::default(), FieldTable::default())
        .await?;
    let _replies = channel
        .basic_consume(replies.name().as_str(), "rpc", BasicConsumeOptions::default(), FieldTable::default())
        .await?;
    Ok(())
}
