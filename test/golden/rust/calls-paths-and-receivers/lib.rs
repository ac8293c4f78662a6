mod store;

use crate::pricing::{self, quote as price_of};
use crate::models::{Order, Repo as OrderRepo};
use std::sync::Arc;

const LIMIT: usize = limits::max_orders();

/// Saves orders.
pub trait Repository: Send + Sync {
    /// Writes one order.
    fn save(&self, order: &Order) -> bool;
    fn count(&self) -> usize {
        self.list().len()
    }
}

pub struct Service {
    repo: Arc<dyn Repository>,
    cache: Cache,
    name: String,
}

impl Service {
    pub fn new(repo: Arc<dyn Repository>) -> Self {
        Self { repo, cache: Cache::new(), name: String::new() }
    }

    pub async fn place(&self, order: Order, ledger: &mut Ledger) -> u64 {
        self.validate(&order);
        self.repo.save(&order);
        self.cache.evict(order.id);
        ledger.record(order.id);
        let total = price_of(&order);
        let audit = Audit::new();
        audit.log("placed");
        let mut batch: Vec<Order> = Vec::new();
        batch.push(order);
        let notify = |msg: &str| {
            println!("{}", msg);
            helper(msg)
        };
        notify("done");
        pricing::round(total);
        store::open("db").await.unwrap().ping();
        OrderRepo::connect().flush();
        Self::helper_static();
        let receipt = Receipt { total };
        receipt.print();
        Some(total).unwrap_or_default()
    }
}

impl Repository for Service {
    fn save(&self, order: &Order) -> bool {
        Wrapper(order.id).check()
    }
}

fn main() {
    let service = Service::new(Arc::new(Memory {}));
    for order in load() {
        order.ship();
    }
    std::process::exit(0);
}
