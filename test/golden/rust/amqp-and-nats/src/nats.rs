use async_nats::Client;

async fn run(client: Client) -> Result<(), async_nats::Error> {
    client.publish("inventory.reserved", "{}".into()).await?;
    let _sub = client.subscribe("inventory.requested").await?;
    let _group = client.queue_subscribe("inventory.released", "workers".into()).await?;
    Ok(())
}
