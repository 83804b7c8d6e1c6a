//! Fincore API client for Rust: typed models and the nine method groups (generated from
//! openapi.json), over a small hand-written core (transport, retries, errors, webhook
//! verification). No dependencies: JSON, SHA-256 and HMAC are implemented here.
//!
//! ```text
//! let client = fincore::Client::new("http://127.0.0.1:3000", "fc_sk_test_...");
//! let page = client.transactions().sync(&TransactionsSyncRequest { access_token, ..Default::default() })?;
//! ```
pub mod client;
pub mod json;
pub mod sha256;
pub mod transport;
pub mod webhook;

/// Request and response models (generated).
#[path = "generated/models.rs"]
pub mod models;
/// The method groups (generated).
#[path = "generated/api.rs"]
pub mod api;

pub use client::{Client, ClientOptions, Error};
pub use json::Value;
pub use webhook::{verify_webhook, RejectReason, WebhookDelivery, WebhookError, WebhookEvent};
