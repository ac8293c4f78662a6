use rdkafka::producer::FutureRecord;

const ORDERS: &str = "orders.created";

fn send(topic: &str) {
    let _ = FutureRecord::<str, str>::to(topic);
    let env = std::env::var("ORDERS_TOPIC").unwrap();
    let _ = FutureRecord::<str, str>::to(&env);
    let _ = FutureRecord::<str, str>::to(ORDERS);
}

fn shadow(ORDERS: &str) {
    let _ = FutureRecord::<str, str>::to(ORDERS);
}
