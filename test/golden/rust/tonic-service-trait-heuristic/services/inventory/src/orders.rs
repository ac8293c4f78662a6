use tonic::{Request, Response, Status};

pub struct Orders;

#[tonic::async_trait]
impl OrderService for Orders {
    async fn place_order(&self, request: Request<PlaceOrder>) -> Result<Response<Placed>, Status> {
        todo!()
    }
}
