// The core's behaviour through an injected transport (retries, backoff, error mapping, request
// shape) and the real TcpTransport against a tiny local HTTP stub.
use fincore::models::{LinkTokenExchangeRequest, TransactionsSyncRequest};
use fincore::transport::{HttpRequest, HttpResponse, TcpTransport, Transport, TransportError, TransportErrorKind};
use fincore::{Client, ClientOptions};
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Scripted = Result<HttpResponse, TransportError>;

/// Answers from a script and records every request.
#[derive(Default)]
struct ScriptedTransport {
    answers: Mutex<VecDeque<Scripted>>,
    requests: Mutex<Vec<HttpRequest>>,
}

impl Transport for ScriptedTransport {
    fn send(&self, request: &HttpRequest, _timeout: Duration) -> Result<HttpResponse, TransportError> {
        self.requests.lock().unwrap().push(request.clone());
        self.answers.lock().unwrap().pop_front().expect("the test scripted enough answers")
    }
}

fn answer(status: u16, headers: &[(&str, &str)], body: &str) -> Scripted {
    Ok(HttpResponse { status, headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(), body: body.as_bytes().to_vec() })
}

fn api_error(status: u16, error_type: &str, code: &str) -> String {
    format!(r#"{{"error":{{"type":"{}","code":"{}","message":"m","request_id":"req_{}"}}}}"#, error_type, code, status)
}

const SYNC_PAGE: &str = r#"{"added":[],"modified":[],"removed":[],"next_cursor":"c1","has_more":false,"transactions_update_status":"historical_update_complete","new_key_from_a_later_api":1}"#;

struct Harness {
    transport: Arc<ScriptedTransport>,
    sleeps: Arc<Mutex<Vec<Duration>>>,
    client: Client,
}

fn harness(answers: Vec<Scripted>, max_retries: Option<u32>) -> Harness {
    let transport = Arc::new(ScriptedTransport { answers: Mutex::new(answers.into()), requests: Mutex::default() });
    let sleeps = Arc::new(Mutex::new(Vec::new()));
    let recorded = sleeps.clone();
    let mut options = ClientOptions::new("http://api.test/", "fc_sk_test_abcdefghijklmnopqrstuvwx")
        .transport(transport.clone())
        .sleeper(Arc::new(move |d| recorded.lock().unwrap().push(d)));
    if let Some(n) = max_retries {
        options = options.max_retries(n);
    }
    Harness { transport, sleeps, client: Client::with_options(options) }
}

fn sync_request() -> TransactionsSyncRequest {
    TransactionsSyncRequest { access_token: "access-sandbox-1".into(), count: Some(500), ..Default::default() }
}

fn exchange_request() -> LinkTokenExchangeRequest {
    LinkTokenExchangeRequest { public_token: "public-sandbox-1".into() }
}

#[test]
fn sends_bearer_json_and_omits_unset_optional_fields() {
    let h = harness(vec![answer(200, &[], SYNC_PAGE)], None);
    let page = h.client.transactions().sync(&sync_request()).expect("decodes");
    assert_eq!(page.next_cursor, "c1");
    assert!(!page.has_more);
    let requests = h.transport.requests.lock().unwrap();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.url, "http://api.test/v1/transactions/sync");
    let header = |name: &str| request.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    assert_eq!(header("Authorization").as_deref(), Some("Bearer fc_sk_test_abcdefghijklmnopqrstuvwx"));
    assert_eq!(header("Content-Type").as_deref(), Some("application/json"));
    assert_eq!(header("FC-Version"), None);
    let body = String::from_utf8(request.body.clone().unwrap()).unwrap();
    assert_eq!(body, r#"{"access_token":"access-sandbox-1","count":500}"#);
}

#[test]
fn retries_429_after_the_retry_after_seconds() {
    let h = harness(vec![answer(429, &[("Retry-After", "3")], &api_error(429, "rate_limit_error", "rate_limit_exceeded")), answer(200, &[], SYNC_PAGE)], None);
    h.client.transactions().sync(&sync_request()).expect("the retry succeeds");
    assert_eq!(*h.sleeps.lock().unwrap(), vec![Duration::from_secs(3)]);
    assert_eq!(h.transport.requests.lock().unwrap().len(), 2);
}

#[test]
fn retries_429_even_for_a_call_that_is_not_safe_to_repeat() {
    let exchanged = r#"{"access_token":"access-sandbox-1","item_id":"item_1","rotated":false}"#;
    let h = harness(vec![answer(429, &[], &api_error(429, "rate_limit_error", "rate_limit_exceeded")), answer(200, &[], exchanged)], None);
    let result = h.client.link().token_exchange(&exchange_request()).expect("a refused request did nothing, so it is retried");
    assert_eq!(result.item_id, "item_1");
    // No Retry-After: the first backoff step.
    assert_eq!(*h.sleeps.lock().unwrap(), vec![Duration::from_millis(500)]);
}

#[test]
fn gives_up_after_max_retries_with_the_last_error() {
    let limited = || answer(429, &[("Retry-After", "1")], &api_error(429, "rate_limit_error", "rate_limit_exceeded"));
    let h = harness(vec![limited(), limited(), limited()], None);
    let error = h.client.transactions().sync(&sync_request()).unwrap_err();
    assert_eq!((error.status, error.code.as_str(), error.retry_after), (429, "rate_limit_exceeded", Some(1.0)));
    assert_eq!(h.transport.requests.lock().unwrap().len(), 3);
}

#[test]
fn a_monthly_quota_429_is_never_retried_and_keeps_its_retry_after() {
    for code in ["monthly_api_quota_exceeded", "monthly_ai_quota_exceeded"] {
        let h = harness(vec![answer(429, &[("Retry-After", "1209600")], &api_error(429, "rate_limit_error", code)), answer(200, &[], SYNC_PAGE)], None);
        let error = h.client.transactions().sync(&sync_request()).unwrap_err();
        assert_eq!((error.status, error.code.as_str(), error.retry_after), (429, code, Some(1209600.0)));
        assert!(h.sleeps.lock().unwrap().is_empty(), "no sleep for {}", code);
        assert_eq!(h.transport.requests.lock().unwrap().len(), 1);
    }
}

#[test]
fn a_429_asking_for_more_than_60_seconds_fails_at_once_with_the_wait() {
    let h = harness(vec![answer(429, &[("Retry-After", "61")], &api_error(429, "rate_limit_error", "rate_limit_exceeded")), answer(200, &[], SYNC_PAGE)], None);
    let error = h.client.transactions().sync(&sync_request()).unwrap_err();
    assert_eq!((error.status, error.code.as_str(), error.retry_after), (429, "rate_limit_exceeded", Some(61.0)));
    assert!(h.sleeps.lock().unwrap().is_empty());
    assert_eq!(h.transport.requests.lock().unwrap().len(), 1);
}

#[test]
fn retries_5xx_with_exponential_backoff_on_a_safe_call() {
    let down = || answer(503, &[], &api_error(503, "api_error", "service_unavailable"));
    let h = harness(vec![down(), down(), answer(200, &[], SYNC_PAGE)], None);
    h.client.transactions().sync(&sync_request()).expect("the third attempt succeeds");
    assert_eq!(*h.sleeps.lock().unwrap(), vec![Duration::from_millis(500), Duration::from_millis(1000)]);
}

#[test]
fn never_retries_5xx_on_a_call_that_is_not_safe_to_repeat() {
    let h = harness(vec![answer(500, &[], &api_error(500, "api_error", "internal_error"))], None);
    let error = h.client.link().token_exchange(&exchange_request()).unwrap_err();
    assert_eq!((error.status, error.error_type.as_str(), error.code.as_str()), (500, "api_error", "internal_error"));
    assert_eq!(h.transport.requests.lock().unwrap().len(), 1);
    assert!(h.sleeps.lock().unwrap().is_empty());
}

#[test]
fn network_errors_are_retried_only_when_safe() {
    let broken = || Err(TransportError { kind: TransportErrorKind::Io, message: "reset".into() });
    let h = harness(vec![broken(), answer(200, &[], SYNC_PAGE)], None);
    h.client.transactions().sync(&sync_request()).expect("retried");
    assert_eq!(h.transport.requests.lock().unwrap().len(), 2);

    let h = harness(vec![Err(TransportError { kind: TransportErrorKind::Timeout, message: "slow".into() })], None);
    let error = h.client.link().token_exchange(&exchange_request()).unwrap_err();
    assert_eq!((error.status, error.error_type.as_str(), error.code.as_str()), (0, "network_error", "timeout"));
    assert_eq!(h.transport.requests.lock().unwrap().len(), 1);
}

#[test]
fn max_retries_is_configurable() {
    let h = harness(vec![answer(503, &[], &api_error(503, "api_error", "service_unavailable"))], Some(0));
    assert_eq!(h.client.transactions().sync(&sync_request()).unwrap_err().status, 503);
    assert_eq!(h.transport.requests.lock().unwrap().len(), 1);
}

#[test]
fn maps_the_error_body_to_the_error_type() {
    let h = harness(vec![answer(400, &[("X-Request-Id", "req_header")], &api_error(400, "invalid_request", "invalid_access_token"))], None);
    let error = h.client.transactions().sync(&sync_request()).unwrap_err();
    assert_eq!(error.status, 400);
    assert_eq!(error.error_type, "invalid_request");
    assert_eq!(error.code, "invalid_access_token");
    assert_eq!(error.message, "m");
    assert_eq!(error.request_id.as_deref(), Some("req_400"));
    assert!(h.sleeps.lock().unwrap().is_empty(), "a 4xx is never retried");
}

#[test]
fn a_non_json_error_answer_still_becomes_the_error_type() {
    let h = harness(vec![answer(502, &[("X-Request-Id", "req_gw")], "<html>bad gateway</html>")], Some(0));
    let error = h.client.transactions().sync(&sync_request()).unwrap_err();
    assert_eq!((error.status, error.error_type.as_str(), error.code.as_str()), (502, "api_error", "http_502"));
    assert_eq!(error.request_id.as_deref(), Some("req_gw"));
}

#[test]
fn a_2xx_answer_of_the_wrong_shape_is_a_decode_error() {
    let h = harness(vec![answer(200, &[], r#"{"added":"nope"}"#)], None);
    let error = h.client.transactions().sync(&sync_request()).unwrap_err();
    assert_eq!(error.error_type, "decode_error");
    assert!(error.message.contains("added"), "{}", error.message);
}

/// A one-thread HTTP stub: answers each accepted connection with the next scripted raw response.
fn stub(responses: Vec<String>) -> (String, std::thread::JoinHandle<Vec<String>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        let mut seen = Vec::new();
        for response in responses {
            let (mut stream, _) = listener.accept().unwrap();
            let mut request = Vec::new();
            let mut chunk = [0u8; 4096];
            // Read the head and the Content-Length body.
            loop {
                let n = stream.read(&mut chunk).unwrap();
                request.extend_from_slice(&chunk[..n]);
                let text = String::from_utf8_lossy(&request).to_string();
                if let Some(end) = text.find("\r\n\r\n") {
                    let length = text
                        .lines()
                        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse::<usize>().unwrap()))
                        .unwrap_or(0);
                    if request.len() >= end + 4 + length {
                        break;
                    }
                }
                if n == 0 {
                    break;
                }
            }
            seen.push(String::from_utf8_lossy(&request).to_string());
            stream.write_all(response.as_bytes()).unwrap();
        }
        seen
    });
    (base, handle)
}

#[test]
fn tcp_transport_talks_http_1_1_with_content_length_and_chunked_answers() {
    let error_body = r#"{"error":{"type":"rate_limit_error","code":"rate_limit_exceeded","message":"slow","request_id":"r"}}"#;
    let (first, second) = SYNC_PAGE.split_at(16);
    let (base, server) = stub(vec![
        format!("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 0\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}", error_body.len(), error_body),
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{}\r\n{:x};ext=1\r\n{}\r\n0\r\n\r\n",
            first.len(),
            first,
            second.len(),
            second
        ),
    ]);
    let sleeps = Arc::new(Mutex::new(Vec::new()));
    let recorded = sleeps.clone();
    let client = Client::with_options(
        ClientOptions::new(base, "fc_sk_test_abcdefghijklmnopqrstuvwx").sleeper(Arc::new(move |d| recorded.lock().unwrap().push(d))).timeout(Duration::from_secs(10)),
    );
    let page = client.transactions().sync(&sync_request()).expect("second answer decodes");
    assert_eq!(page.next_cursor, "c1");
    assert_eq!(*sleeps.lock().unwrap(), vec![Duration::from_secs(0)]);
    let seen = server.join().unwrap();
    assert!(seen[0].starts_with("POST /v1/transactions/sync HTTP/1.1\r\n"), "{}", seen[0]);
    assert!(seen[0].contains("Authorization: Bearer fc_sk_test_abcdefghijklmnopqrstuvwx\r\n"));
    assert!(seen[0].ends_with(r#"{"access_token":"access-sandbox-1","count":500}"#));
}

#[test]
fn tcp_transport_times_out() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1/items/get", listener.local_addr().unwrap());
    // Accepted by the kernel's backlog but never answered.
    let request = HttpRequest { method: "POST".into(), url, headers: vec![], body: Some(b"{}".to_vec()) };
    let error = TcpTransport.send(&request, Duration::from_millis(200)).unwrap_err();
    assert_eq!(error.kind, TransportErrorKind::Timeout);
    drop(listener);
}

#[test]
fn https_urls_need_a_pluggable_transport() {
    let request = HttpRequest { method: "GET".into(), url: "https://api.example/".into(), headers: vec![], body: None };
    assert_eq!(TcpTransport.send(&request, Duration::from_secs(1)).unwrap_err().kind, TransportErrorKind::Unsupported);
}
