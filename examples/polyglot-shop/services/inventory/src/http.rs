use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use crate::stock::StockBook;

#[derive(Serialize)]
struct StockView {
    sku: String,
    available: i64,
}

pub fn router(book: Arc<StockBook>) -> Router {
    Router::new()
        .route("/stock/{sku}", get(stock_level))
        .with_state(book)
}

async fn stock_level(
    State(book): State<Arc<StockBook>>,
    Path(sku): Path<String>,
) -> Result<Json<StockView>, StatusCode> {
    match book.level(&sku) {
        Some(available) => Ok(Json(StockView { sku, available })),
        None => Err(StatusCode::NOT_FOUND),
    }
}
