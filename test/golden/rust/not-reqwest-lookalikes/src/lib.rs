use std::collections::HashMap;

use reqwest::Method;

/// A file that uses reqwest's types next to a client of its own and maps: `.get`/`.post` on those,
/// even followed by `.send()`, and a `get` function of another crate, send no HTTP request.
mod api {
    pub struct Client {
        pub base: String,
    }

    impl Client {
        pub fn new(base: &str) -> Client {
            Client { base: base.to_string() }
        }
        pub fn get(&self, path: &str) -> Pending {
            Pending(self.base.len() + path.len())
        }
    }

    pub struct Pending(pub usize);

    impl Pending {
        pub fn send(self) -> usize {
            self.0
        }
    }
}

use api::Client;

pub struct Cache {
    entries: HashMap<String, String>,
}

pub fn lookalikes(cache: &Cache, urls: HashMap<&str, &str>) -> usize {
    let client = Client::new("http://orders:8080");
    let sent = client.get("/orders").send();
    let _ = urls.get("http://cart:8080/cart");
    let _ = cache.entries.get("http://ads:9555/ads");
    let _ = ureq_like::get("http://shipping:50051/quote");
    let _ = Method::GET;
    sent
}

mod ureq_like {
    pub fn get(url: &str) -> usize {
        url.len()
    }
}
