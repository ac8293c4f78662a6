use std::pin::Pin;
use std::sync::Arc;

use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};
use tonic::{Request, Response, Status};

use crate::pb::inventory_service_server::InventoryService;
use crate::pb::{
    ReleaseStockRequest, ReleaseStockResponse, ReservationStatus, ReserveStockRequest, ReserveStockResponse,
    StockLevel, WatchStockLevelsRequest,
};
use crate::stock::StockBook;

type StockLevelStream = Pin<Box<dyn Stream<Item = Result<StockLevel, Status>> + Send>>;

pub struct InventoryApi {
    book: Arc<StockBook>,
}

impl InventoryApi {
    pub fn new(book: Arc<StockBook>) -> Self {
        Self { book }
    }
}

#[tonic::async_trait]
impl InventoryService for InventoryApi {
    async fn reserve_stock(&self, request: Request<ReserveStockRequest>) -> Result<Response<ReserveStockResponse>, Status> {
        let req = request.into_inner();
        let items: Vec<(String, i64)> = req.items.iter().map(|i| (i.sku.clone(), i64::from(i.quantity))).collect();
        let status = match self.book.reserve(&req.order_id, &items) {
            Ok(()) => ReservationStatus::Reserved,
            Err(_) => ReservationStatus::InsufficientStock,
        };
        Ok(Response::new(ReserveStockResponse { order_id: req.order_id, status: status as i32 }))
    }

    async fn release_stock(&self, request: Request<ReleaseStockRequest>) -> Result<Response<ReleaseStockResponse>, Status> {
        let req = request.into_inner();
        let released_units = self.book.release(&req.order_id);
        tracing::info!(order_id = %req.order_id, reason = %req.reason, released_units, "stock released");
        Ok(Response::new(ReleaseStockResponse { order_id: req.order_id, released_units }))
    }

    type WatchStockLevelsStream = StockLevelStream;

    async fn watch_stock_levels(
        &self,
        request: Request<WatchStockLevelsRequest>,
    ) -> Result<Response<Self::WatchStockLevelsStream>, Status> {
        let skus = request.into_inner().skus;
        let updates = BroadcastStream::new(self.book.subscribe()).filter_map(move |change| match change {
            Ok((sku, available)) if skus.is_empty() || skus.contains(&sku) => Some(Ok(StockLevel { sku, available })),
            _ => None,
        });
        Ok(Response::new(Box::pin(updates)))
    }
}
