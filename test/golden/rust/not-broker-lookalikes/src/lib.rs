struct Cache;

impl Cache {
    fn publish(&self, channel: &str, message: &str) {}
    fn subscribe(&self, channel: &str) {}
    fn basic_publish(&self, a: &str, b: &str, c: u8, d: &[u8], e: u8) {}
}

// Method names of messaging clients on objects of no messaging crate, and a topic-like string.
fn lookalikes(cache: &Cache) {
    cache.publish("cache.invalidate", "x");
    cache.subscribe("cache.invalidate");
    cache.basic_publish("", "hello", 0, b"", 0);
    let _topic = "orders.created";
}
