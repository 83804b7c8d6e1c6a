// Every vector of the shared file sdks/webhook-vectors.json: this library must reach the same
// outcome as the reference implementation and every other Fincore library.
use fincore::json::{self, Value};
use fincore::webhook::{sign_webhook, WebhookDelivery, WebhookError};
use std::path::PathBuf;

fn vectors_path() -> PathBuf {
    match std::env::var("FC_WEBHOOK_VECTORS") {
        Ok(path) if !path.is_empty() => PathBuf::from(path),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("webhook-vectors.json"),
    }
}

/// A number, or one of the strings "NaN", "Infinity", "-Infinity".
fn number(value: Option<&Value>, default: f64) -> f64 {
    match value {
        None | Some(Value::Null) => default,
        Some(Value::Number(n)) => *n,
        Some(Value::String(s)) => match s.as_str() {
            "NaN" => f64::NAN,
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            other => panic!("unexpected number text {:?}", other),
        },
        Some(other) => panic!("unexpected number {:?}", other),
    }
}

#[test]
fn every_shared_vector_has_the_expected_outcome() {
    let text = std::fs::read_to_string(vectors_path()).expect("sdks/webhook-vectors.json is readable");
    let file = json::parse(&text).expect("the vectors file is JSON");
    let default_tolerance = number(file.get("tolerance_seconds"), 300.0);
    let vectors = file.get("vectors").and_then(Value::as_array).expect("a vectors array");
    assert!(vectors.len() >= 10, "expected the full vector set, found {}", vectors.len());
    let mut failures = Vec::new();
    for vector in vectors {
        let name = vector.get("name").and_then(Value::as_str).unwrap_or("?");
        let secrets: Vec<String> = vector.get("secrets").and_then(Value::as_array).unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
        let body = vector.get("body").and_then(Value::as_str).unwrap();
        let delivery = WebhookDelivery::new(body.as_bytes(), vector.get("signature").and_then(Value::as_str), vector.get("timestamp").and_then(Value::as_str))
            .tolerance_seconds(number(vector.get("tolerance_seconds"), default_tolerance))
            .now(number(vector.get("now"), f64::NAN));
        let expected = vector.get("expected").unwrap();
        let outcome = delivery.verify(&secrets);
        let agrees = match (expected.get("ok").and_then(Value::as_bool), expected.get("error"), &outcome) {
            (Some(true), _, Ok(event)) => Some(event.event_type.as_str()) == expected.get("event_type").and_then(Value::as_str),
            (Some(false), _, Err(WebhookError::Rejected(reason))) => Some(reason.as_str()) == expected.get("reason").and_then(Value::as_str),
            (None, Some(Value::String(e)), Err(WebhookError::InvalidArgument(_))) => e == "invalid_argument",
            _ => false,
        };
        if !agrees {
            failures.push(format!("{}: expected {}, got {:?}", name, expected, outcome.map(|e| e.event_type)));
        }
    }
    assert!(failures.is_empty(), "{} of {} vectors disagree:\n{}", failures.len(), vectors.len(), failures.join("\n"));
}

#[test]
fn a_signature_made_by_sign_webhook_verifies_with_the_system_clock() {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let body = br#"{"id":"evt_1","type":"item.error","created":1,"data":{}}"#;
    let signature = format!("{},{}", sign_webhook("whsec_old", now, body), sign_webhook("whsec_new", now, body));
    let stamp = now.to_string();
    let event = WebhookDelivery::new(body, Some(&signature), Some(&stamp)).verify(&["whsec_new"]).expect("verifies");
    assert_eq!(event.event_type, "item.error");
    assert_eq!(event.id, "evt_1");
}
