use crate::http::HttpClient;

async fn call() {
    let client = HttpClient::new();
    client.fetch("x").await;
}
