//! Webhook signature verification. Each delivery carries
//!   FC-Timestamp: <Unix seconds>
//!   FC-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + raw body)>[,v1=<hex>...]
//! with one `v1=` entry per active signing secret during a rotation. The checks and their order
//! are those of the service's reference implementation, so every Fincore library agrees on every
//! delivery (the shared vectors in sdks/webhook-vectors.json prove it).
use crate::json::{self, Object, Value};
use crate::sha256::{constant_time_eq, hmac_sha256};
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

pub const SIGNATURE_HEADER: &str = "FC-Signature";
pub const TIMESTAMP_HEADER: &str = "FC-Timestamp";
/// Deliveries whose timestamp is further than this from the receiver's clock are rejected.
pub const DEFAULT_TOLERANCE_SECONDS: f64 = 300.0;

/// Why a delivery was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejectReason {
    MissingSignature,
    MissingTimestamp,
    MalformedSignature,
    MalformedTimestamp,
    TimestampOutsideWindow,
    SignatureMismatch,
    InvalidBody,
}

impl RejectReason {
    /// The reason's name as every Fincore library spells it (`signature_mismatch`, ...).
    pub fn as_str(&self) -> &'static str {
        match self {
            RejectReason::MissingSignature => "missing_signature",
            RejectReason::MissingTimestamp => "missing_timestamp",
            RejectReason::MalformedSignature => "malformed_signature",
            RejectReason::MalformedTimestamp => "malformed_timestamp",
            RejectReason::TimestampOutsideWindow => "timestamp_outside_window",
            RejectReason::SignatureMismatch => "signature_mismatch",
            RejectReason::InvalidBody => "invalid_body",
        }
    }
}

/// The outcome of a failed verification: a bad delivery (answer it with a 400), or arguments that
/// are a programming error (no secret, a tolerance or clock that is not a finite number).
#[derive(Debug, Clone, PartialEq)]
pub enum WebhookError {
    Rejected(RejectReason),
    InvalidArgument(&'static str),
}

impl fmt::Display for WebhookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebhookError::Rejected(reason) => write!(f, "webhook rejected: {}", reason.as_str()),
            WebhookError::InvalidArgument(what) => write!(f, "invalid argument: {}", what),
        }
    }
}
impl std::error::Error for WebhookError {}

/// A verified delivery's event.
#[derive(Debug, Clone, PartialEq)]
pub struct WebhookEvent {
    pub id: String,
    /// The event type (`transactions.sync_updates_available`, ...): the wire field `type`.
    pub event_type: String,
    /// Unix seconds when the event was created.
    pub created: f64,
    pub data: Object,
    /// The whole body as parsed.
    pub raw: Value,
}

/// One delivery to verify. Build it with `WebhookDelivery::new`, adjust the tolerance or clock if
/// needed, then call `verify`.
#[derive(Debug, Clone)]
pub struct WebhookDelivery<'a> {
    /// The request body exactly as received.
    pub raw_body: &'a [u8],
    /// The FC-Signature header, None when absent.
    pub signature: Option<&'a str>,
    /// The FC-Timestamp header, None when absent.
    pub timestamp: Option<&'a str>,
    /// Allowed distance between FC-Timestamp and `now`, either direction.
    pub tolerance_seconds: f64,
    /// The receiver's clock in Unix seconds; None reads the system clock.
    pub now: Option<f64>,
}

impl<'a> WebhookDelivery<'a> {
    pub fn new(raw_body: &'a [u8], signature: Option<&'a str>, timestamp: Option<&'a str>) -> Self {
        WebhookDelivery { raw_body, signature, timestamp, tolerance_seconds: DEFAULT_TOLERANCE_SECONDS, now: None }
    }

    pub fn tolerance_seconds(mut self, seconds: f64) -> Self {
        self.tolerance_seconds = seconds;
        self
    }

    pub fn now(mut self, unix_seconds: f64) -> Self {
        self.now = Some(unix_seconds);
        self
    }

    /// Verifies the delivery against every given secret (any one may match).
    pub fn verify<S: AsRef<str>>(&self, secrets: &[S]) -> Result<WebhookEvent, WebhookError> {
        verify_webhook(self, secrets)
    }
}

/// JavaScript's String.prototype.trim whitespace, so header values trim exactly as the reference does.
fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{a}' | '\u{b}' | '\u{c}' | '\u{d}' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

fn header_text(value: Option<&str>) -> Option<&str> {
    value.map(js_trim).filter(|v| !v.is_empty())
}

fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..32).map(|i| u8::from_str_radix(&text[i * 2..i * 2 + 2], 16).ok()).collect()
}

/// The v1 signatures in the header; None when the header is not a list of `scheme=value`.
fn parse_signatures(header: &str) -> Option<Vec<Vec<u8>>> {
    let mut found = Vec::new();
    for part in header.split(',') {
        let entry = js_trim(part);
        let eq = entry.find('=')?;
        if eq == 0 {
            return None;
        }
        let (scheme, value) = (&entry[..eq], &entry[eq + 1..]);
        if scheme != "v1" {
            continue; // other schemes are for other verifiers
        }
        found.push(decode_hex(value)?);
    }
    if found.is_empty() {
        None
    } else {
        Some(found)
    }
}

fn is_timestamp(text: &str) -> bool {
    !text.is_empty() && text.len() <= 15 && text.bytes().all(|b| b.is_ascii_digit())
}

fn parse_event(raw_body: &[u8]) -> Option<WebhookEvent> {
    let text = String::from_utf8_lossy(raw_body);
    let value = json::parse(&text).ok()?;
    let object = value.as_object()?;
    let id = object.get("id")?.as_str().filter(|s| !s.is_empty())?.to_string();
    let event_type = object.get("type")?.as_str().filter(|s| !s.is_empty())?.to_string();
    let created = object.get("created")?.as_f64().filter(|n| n.is_finite())?;
    let data = object.get("data")?.as_object()?.clone();
    Some(WebhookEvent { id, event_type, created, data, raw: value.clone() })
}

fn system_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

/// Checks a delivery's signature and timestamp, then parses its body. Order of checks: headers
/// present, timestamp well formed, signatures well formed, signature (any `v1=` entry under any
/// secret, compared in constant time), timestamp window (both directions), body.
pub fn verify_webhook<S: AsRef<str>>(delivery: &WebhookDelivery<'_>, secrets: &[S]) -> Result<WebhookEvent, WebhookError> {
    let secrets: Vec<&str> = secrets.iter().map(|s| s.as_ref()).filter(|s| !s.is_empty()).collect();
    if secrets.is_empty() {
        return Err(WebhookError::InvalidArgument("a non-empty secret is required"));
    }
    // NaN or infinity would switch the timestamp window off.
    if !delivery.tolerance_seconds.is_finite() || delivery.tolerance_seconds < 0.0 {
        return Err(WebhookError::InvalidArgument("tolerance_seconds must be a finite number, 0 or more"));
    }
    let now = delivery.now.unwrap_or_else(system_now);
    if !now.is_finite() {
        return Err(WebhookError::InvalidArgument("now must be a finite number of seconds"));
    }
    let reject = |reason| Err(WebhookError::Rejected(reason));

    let signature_header = match header_text(delivery.signature) {
        Some(h) => h,
        None => return reject(RejectReason::MissingSignature),
    };
    let timestamp_header = match header_text(delivery.timestamp) {
        Some(h) => h,
        None => return reject(RejectReason::MissingTimestamp),
    };
    // A repeated FC-Timestamp header is only acceptable when every copy is the same value.
    let mut stamps: Vec<&str> = timestamp_header.split(',').map(js_trim).collect();
    stamps.dedup();
    stamps.sort_unstable();
    stamps.dedup();
    if stamps.len() != 1 || !is_timestamp(stamps[0]) {
        return reject(RejectReason::MalformedTimestamp);
    }
    let timestamp = stamps[0];
    let given = match parse_signatures(signature_header) {
        Some(g) => g,
        None => return reject(RejectReason::MalformedSignature),
    };

    let mut matched = false;
    for secret in &secrets {
        let expected = hmac_sha256(secret.as_bytes(), &[timestamp.as_bytes(), b".", delivery.raw_body]);
        // Every pair is compared (no early exit) so timing says nothing about which entry matched.
        for candidate in &given {
            if constant_time_eq(candidate, &expected) {
                matched = true;
            }
        }
    }
    if !matched {
        return reject(RejectReason::SignatureMismatch);
    }
    let stamp: f64 = timestamp.parse().unwrap_or(f64::NAN);
    if (now - stamp).abs() > delivery.tolerance_seconds {
        return reject(RejectReason::TimestampOutsideWindow);
    }
    parse_event(delivery.raw_body).ok_or(WebhookError::Rejected(RejectReason::InvalidBody))
}

/// The `v1=<hex>` signature of a body under one secret (for tests and local tooling).
pub fn sign_webhook(secret: &str, timestamp: u64, raw_body: &[u8]) -> String {
    let stamp = timestamp.to_string();
    format!("v1={}", crate::sha256::to_hex(&hmac_sha256(secret.as_bytes(), &[stamp.as_bytes(), b".", raw_body])))
}
