//! The hand-written core every generated method goes through: bearer auth, JSON, timeouts,
//! retries and the one error type.
use crate::json::{self, FromJson, Value};
use crate::transport::{HttpRequest, HttpResponse, TcpTransport, Transport, TransportErrorKind};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
pub const DEFAULT_MAX_RETRIES: u32 = 2;
/// First backoff delay; it doubles each retry up to MAX_BACKOFF.
pub const INITIAL_BACKOFF: Duration = Duration::from_millis(500);
pub const MAX_BACKOFF: Duration = Duration::from_secs(8);

/// Every failure the client reports: an error answer from the API (status, type, code, message,
/// request_id as sent), or a request that never got a usable answer (status 0, type
/// `network_error`; or type `decode_error` for a 2xx body that is not the documented shape).
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// HTTP status; 0 when no answer arrived.
    pub status: u16,
    /// `invalid_request`, `authentication_error`, `rate_limit_error`, ... (the wire field `type`).
    pub error_type: String,
    pub code: String,
    pub message: String,
    pub request_id: Option<String>,
    /// Seconds from a `Retry-After` header, when the answer had one.
    pub retry_after: Option<f64>,
    /// Where the code is explained (`{base_url}/docs/errors#<code>`), when the answer carried an error body.
    pub documentation_url: Option<String>,
    /// A sentence safe to show your end user; `None` when the error is the integration's to fix.
    pub display_message: Option<String>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({}): {}", self.status, self.error_type, self.code, self.message)?;
        if let Some(id) = &self.request_id {
            write!(f, " [request_id {}]", id)?;
        }
        Ok(())
    }
}
impl std::error::Error for Error {}

impl Error {
    fn local(status: u16, error_type: &str, code: &str, message: impl Into<String>) -> Self {
        Error {
            status,
            error_type: error_type.into(),
            code: code.into(),
            message: message.into(),
            request_id: None,
            retry_after: None,
            documentation_url: None,
            display_message: None,
        }
    }

    /// The error an HTTP answer with a non-2xx status stands for.
    pub fn from_response(response: &HttpResponse) -> Self {
        let retry_after = response.header("Retry-After").and_then(parse_retry_after);
        let header_request_id = response.header("X-Request-Id").map(str::to_string);
        let body = json::parse(&String::from_utf8_lossy(&response.body)).ok();
        let error = body.as_ref().and_then(|b| b.get("error")).and_then(Value::as_object);
        let text = |key: &str| error.and_then(|e| e.get(key)).and_then(Value::as_str).map(str::to_string);
        Error {
            status: response.status,
            error_type: text("type").unwrap_or_else(|| "api_error".into()),
            code: text("code").unwrap_or_else(|| format!("http_{}", response.status)),
            message: text("message").unwrap_or_else(|| format!("HTTP {} without a Fincore error body", response.status)),
            request_id: text("request_id").or(header_request_id),
            retry_after,
            documentation_url: text("documentation_url"),
            display_message: text("display_message"),
        }
    }
}

/// `Retry-After` as seconds (the API sends delta-seconds; an HTTP date falls back to backoff).
fn parse_retry_after(value: &str) -> Option<f64> {
    value.trim().parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0)
}

/// The longest Retry-After the client waits out itself; a longer one is the caller's decision.
pub const MAX_RETRY_AFTER_SECONDS: f64 = 60.0;

/// 429 codes that mean "used up until the monthly reset": their Retry-After is days or weeks away.
pub const MONTHLY_QUOTA_CODES: [&str; 2] = ["monthly_api_quota_exceeded", "monthly_ai_quota_exceeded"];

/// Whether a 429 should be slept off and retried: not a monthly quota, and no Retry-After longer
/// than MAX_RETRY_AFTER_SECONDS (sleeping a thread for minutes or weeks would look like a hang).
fn retry_worth_waiting_for(error: &Error) -> bool {
    !MONTHLY_QUOTA_CODES.contains(&error.code.as_str()) && error.retry_after.map_or(true, |seconds| seconds <= MAX_RETRY_AFTER_SECONDS)
}

/// The backoff before retry number `retry` (0-based): 0.5 s, 1 s, 2 s, ... at most 8 s.
pub fn backoff(retry: u32) -> Duration {
    INITIAL_BACKOFF.checked_mul(1u32 << retry.min(16)).unwrap_or(MAX_BACKOFF).min(MAX_BACKOFF)
}

/// How the client waits between retries; tests inject one that records instead of sleeping.
pub type Sleeper = Arc<dyn Fn(Duration) + Send + Sync>;

/// Client settings. `ClientOptions::new(base_url, api_key)` gives the defaults.
#[derive(Clone)]
pub struct ClientOptions {
    /// `http://127.0.0.1:3000` or the API's URL (no trailing `/v1`).
    pub base_url: String,
    pub api_key: String,
    /// Per attempt. Default 30 s.
    pub timeout: Duration,
    /// Retries after the first attempt. Default 2.
    pub max_retries: u32,
    /// Sent as `FC-Version` when set (the API answers with its current version otherwise).
    pub api_version: Option<String>,
    pub transport: Arc<dyn Transport>,
    pub sleeper: Sleeper,
}

impl ClientOptions {
    pub fn new(base_url: impl Into<String>, api_key: impl Into<String>) -> Self {
        ClientOptions {
            base_url: base_url.into().trim_end_matches('/').to_string(),
            api_key: api_key.into(),
            timeout: DEFAULT_TIMEOUT,
            max_retries: DEFAULT_MAX_RETRIES,
            api_version: None,
            transport: Arc::new(TcpTransport),
            sleeper: Arc::new(std::thread::sleep),
        }
    }
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
    pub fn max_retries(mut self, retries: u32) -> Self {
        self.max_retries = retries;
        self
    }
    pub fn api_version(mut self, version: impl Into<String>) -> Self {
        self.api_version = Some(version.into());
        self
    }
    pub fn transport(mut self, transport: Arc<dyn Transport>) -> Self {
        self.transport = transport;
        self
    }
    pub fn sleeper(mut self, sleeper: Sleeper) -> Self {
        self.sleeper = sleeper;
        self
    }
}

impl fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never print the key.
        f.debug_struct("ClientOptions").field("base_url", &self.base_url).field("timeout", &self.timeout).field("max_retries", &self.max_retries).finish()
    }
}

/// The Fincore API client. Methods live in groups: `client.transactions().sync(&request)`.
#[derive(Clone, Debug)]
pub struct Client {
    options: ClientOptions,
}

impl Client {
    /// A client with the default options.
    pub fn new(base_url: impl Into<String>, api_key: impl Into<String>) -> Self {
        Client { options: ClientOptions::new(base_url, api_key) }
    }

    pub fn with_options(options: ClientOptions) -> Self {
        Client { options }
    }

    pub fn options(&self) -> &ClientOptions {
        &self.options
    }

    /// Sends one request and returns the JSON answer. 429 is retried (honouring Retry-After)
    /// unless it is a monthly quota or asks for more than 60 s, which fail at once with
    /// `retry_after` set; a 5xx, a timeout or a broken connection only when `retry_safe` (the call is a
    /// read or an idempotent write), each with exponential backoff, at most `max_retries` times.
    pub fn call(&self, method: &str, path: &str, body: Option<&Value>, retry_safe: bool) -> Result<Value, Error> {
        let mut headers = vec![
            ("Authorization".to_string(), format!("Bearer {}", self.options.api_key)),
            ("Accept".to_string(), "application/json".to_string()),
            ("User-Agent".to_string(), format!("fincore-rust/{}", env!("CARGO_PKG_VERSION"))),
        ];
        if body.is_some() {
            headers.push(("Content-Type".to_string(), "application/json".to_string()));
        }
        if let Some(version) = &self.options.api_version {
            headers.push(("FC-Version".to_string(), version.clone()));
        }
        let request = HttpRequest {
            method: method.to_string(),
            url: format!("{}{}", self.options.base_url, path),
            headers,
            body: body.map(|b| b.to_json_string().into_bytes()),
        };
        let mut retry = 0;
        loop {
            let may_retry = retry < self.options.max_retries;
            match self.options.transport.send(&request, self.options.timeout) {
                Err(failure) => {
                    let unsupported = failure.kind == TransportErrorKind::Unsupported;
                    if retry_safe && may_retry && !unsupported {
                        (self.options.sleeper)(backoff(retry));
                        retry += 1;
                        continue;
                    }
                    let code = match failure.kind {
                        TransportErrorKind::Timeout => "timeout",
                        TransportErrorKind::Connect => "connection_failed",
                        TransportErrorKind::Unsupported => "unsupported_url",
                        TransportErrorKind::Io => "connection_error",
                    };
                    return Err(Error::local(0, "network_error", code, failure.message));
                }
                Ok(response) if (200..300).contains(&response.status) => {
                    let text = String::from_utf8_lossy(&response.body);
                    return json::parse(if text.trim().is_empty() { "{}" } else { &text }).map_err(|e| {
                        let mut error = Error::local(response.status, "decode_error", "invalid_json", format!("the answer is not JSON: {}", e));
                        error.request_id = response.header("X-Request-Id").map(str::to_string);
                        error
                    });
                }
                Ok(response) => {
                    let error = Error::from_response(&response);
                    if response.status == 429 && may_retry && retry_worth_waiting_for(&error) {
                        (self.options.sleeper)(error.retry_after.map(Duration::from_secs_f64).unwrap_or_else(|| backoff(retry)));
                        retry += 1;
                        continue;
                    }
                    if response.status >= 500 && retry_safe && may_retry {
                        (self.options.sleeper)(backoff(retry));
                        retry += 1;
                        continue;
                    }
                    return Err(error);
                }
            }
        }
    }

    /// `call`, then the answer decoded into the operation's response model.
    pub fn call_typed<T: FromJson>(&self, method: &str, path: &str, body: Option<&Value>, retry_safe: bool) -> Result<T, Error> {
        let value = self.call(method, path, body, retry_safe)?;
        T::from_json(&value).map_err(|e| Error::local(200, "decode_error", "unexpected_shape", e.to_string()))
    }
}
