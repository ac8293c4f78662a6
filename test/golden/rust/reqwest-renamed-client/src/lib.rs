use reqwest::Client as Http;

/// reqwest's client under another name is still reqwest's: its requests are calls.
pub async fn place_order() -> Result<(), reqwest::Error> {
    let http = Http::new();
    http.post("http://orders:8080/orders").send().await?;
    Ok(())
}
