use reqwest::{Client, Method};
use std::env;

const CATALOG: &str = "http://catalog:3550";

pub async fn calls(client: &Client, id: &str, target: String) -> Result<(), reqwest::Error> {
    let host = env::var("QUOTE_HOST").unwrap_or_else(|_| "quote".to_string());
    client.post(format!("http://{}:8090/getquote/{}", host, id)).send().await?;
    client.request(Method::DELETE, format!("{CATALOG}/products/{id}")).send().await?;
    reqwest::get("http://localhost:3500/v1.0/invoke/payments/method/charge").await?;
    // Nothing of the URL is known here: still a call.
    client.get(&target).send().await?;
    let base = std::env::var("ORDERS_URL").unwrap();
    client.get(base).send().await?;
    Ok(())
}
