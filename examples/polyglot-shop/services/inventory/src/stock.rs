use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

#[derive(Debug)]
pub struct InsufficientStock {
    pub sku: String,
}

/// Available units per SKU and the units each order holds; every change is broadcast.
pub struct StockBook {
    inner: Mutex<Inner>,
    changes: broadcast::Sender<(String, i64)>,
}

struct Inner {
    available: HashMap<String, i64>,
    reservations: HashMap<String, Vec<(String, i64)>>,
}

impl StockBook {
    pub fn seeded() -> Self {
        let available = [("SKU-TEA-001", 120), ("SKU-MUG-002", 40), ("SKU-POT-003", 12)]
            .into_iter()
            .map(|(sku, units)| (sku.to_string(), units))
            .collect();
        let (changes, _) = broadcast::channel(256);
        Self { inner: Mutex::new(Inner { available, reservations: HashMap::new() }), changes }
    }

    pub fn reserve(&self, order_id: &str, items: &[(String, i64)]) -> Result<(), InsufficientStock> {
        let mut inner = self.inner.lock().expect("stock lock");
        for (sku, quantity) in items {
            if inner.available.get(sku).copied().unwrap_or(0) < *quantity {
                return Err(InsufficientStock { sku: sku.clone() });
            }
        }
        for (sku, quantity) in items {
            let left = inner.available.entry(sku.clone()).or_insert(0);
            *left -= quantity;
            let _ = self.changes.send((sku.clone(), *left));
        }
        inner.reservations.insert(order_id.to_string(), items.to_vec());
        Ok(())
    }

    pub fn release(&self, order_id: &str) -> i64 {
        let mut inner = self.inner.lock().expect("stock lock");
        let Some(items) = inner.reservations.remove(order_id) else {
            return 0;
        };
        let mut released = 0;
        for (sku, quantity) in items {
            let left = inner.available.entry(sku.clone()).or_insert(0);
            *left += quantity;
            released += quantity;
            let _ = self.changes.send((sku, *left));
        }
        released
    }

    pub fn level(&self, sku: &str) -> Option<i64> {
        self.inner.lock().expect("stock lock").available.get(sku).copied()
    }

    pub fn subscribe(&self) -> broadcast::Receiver<(String, i64)> {
        self.changes.subscribe()
    }
}
