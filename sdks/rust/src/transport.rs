//! The HTTP layer. `TcpTransport` speaks HTTP/1.1 over std::net::TcpStream, so it serves
//! `http://` base URLs (the local service, a TLS-terminating sidecar). For `https://` plug a
//! TLS-capable client in through the `Transport` trait (ClientOptions::transport).
use std::fmt;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    pub method: String,
    /// Absolute URL.
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<Vec<u8>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// A header's value, name compared case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportErrorKind {
    /// The request did not complete within the timeout.
    Timeout,
    /// No connection could be made.
    Connect,
    /// The connection broke or the answer was not HTTP.
    Io,
    /// The URL's scheme is not served by this transport.
    Unsupported,
}

/// A request whose outcome is unknown (it may or may not have reached the service).
#[derive(Debug, Clone, PartialEq)]
pub struct TransportError {
    pub kind: TransportErrorKind,
    pub message: String,
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.kind, self.message)
    }
}
impl std::error::Error for TransportError {}

/// Sends one HTTP request. Implement it to use another HTTP client (TLS, proxies, tests).
pub trait Transport: Send + Sync {
    fn send(&self, request: &HttpRequest, timeout: Duration) -> Result<HttpResponse, TransportError>;
}

/// HTTP/1.1 over a plain TCP connection, one connection per request.
#[derive(Debug, Default, Clone, Copy)]
pub struct TcpTransport;

fn io_error(kind: TransportErrorKind, message: impl Into<String>) -> TransportError {
    TransportError { kind, message: message.into() }
}

fn classify(error: std::io::Error) -> TransportError {
    let kind = match error.kind() {
        ErrorKind::TimedOut | ErrorKind::WouldBlock => TransportErrorKind::Timeout,
        _ => TransportErrorKind::Io,
    };
    io_error(kind, error.to_string())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

struct Head {
    status: u16,
    headers: Vec<(String, String)>,
    body_start: usize,
}

fn parse_head(buffer: &[u8]) -> Result<Option<Head>, TransportError> {
    let end = match find(buffer, b"\r\n\r\n") {
        Some(end) => end,
        None => return Ok(None),
    };
    let text = String::from_utf8_lossy(&buffer[..end]);
    let mut lines = text.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .filter(|_| status_line.starts_with("HTTP/1."))
        .ok_or_else(|| io_error(TransportErrorKind::Io, format!("not an HTTP response: {:?}", status_line)))?;
    let headers = lines
        .filter_map(|line| line.split_once(':').map(|(k, v)| (k.trim().to_string(), v.trim().to_string())))
        .collect();
    Ok(Some(Head { status, headers, body_start: end + 4 }))
}

/// Decodes a chunked body; None while it is incomplete.
fn dechunk(mut data: &[u8]) -> Result<Option<Vec<u8>>, TransportError> {
    let mut out = Vec::new();
    loop {
        let line_end = match find(data, b"\r\n") {
            Some(i) => i,
            None => return Ok(None),
        };
        let size_text = String::from_utf8_lossy(&data[..line_end]);
        let size_text = size_text.split(';').next().unwrap_or("").trim().to_string();
        let size = usize::from_str_radix(&size_text, 16).map_err(|_| io_error(TransportErrorKind::Io, "bad chunk size"))?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(if find(data, b"\r\n").is_some() { Some(out) } else { None });
        }
        if data.len() < size + 2 {
            return Ok(None);
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

impl Transport for TcpTransport {
    fn send(&self, request: &HttpRequest, timeout: Duration) -> Result<HttpResponse, TransportError> {
        let deadline = Instant::now() + timeout;
        let rest = request.url.strip_prefix("http://").ok_or_else(|| {
            io_error(TransportErrorKind::Unsupported, "TcpTransport serves http:// URLs only; plug a TLS-capable Transport in for https://")
        })?;
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        let address = if authority.rsplit(':').next().map_or(false, |p| p.parse::<u16>().is_ok()) && !authority.ends_with(']') {
            authority.to_string()
        } else {
            format!("{}:80", authority)
        };
        let addresses = address.to_socket_addrs().map_err(|e| io_error(TransportErrorKind::Connect, e.to_string()))?;
        let mut stream = None;
        let mut last_error = String::from("no address");
        for candidate in addresses {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(io_error(TransportErrorKind::Timeout, "connect timed out"));
            }
            match TcpStream::connect_timeout(&candidate, remaining) {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) if e.kind() == ErrorKind::TimedOut => return Err(io_error(TransportErrorKind::Timeout, e.to_string())),
                Err(e) => last_error = e.to_string(),
            }
        }
        let mut stream = stream.ok_or_else(|| io_error(TransportErrorKind::Connect, last_error))?;
        let _ = stream.set_nodelay(true);

        let mut head = format!("{} {} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n", request.method, path, authority);
        for (name, value) in &request.headers {
            head.push_str(&format!("{}: {}\r\n", name, value));
        }
        let body = request.body.as_deref().unwrap_or(&[]);
        if request.body.is_some() {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut payload = head.into_bytes();
        payload.extend_from_slice(body);
        stream.set_write_timeout(Some(deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1)))).map_err(classify)?;
        stream.write_all(&payload).map_err(classify)?;

        let mut buffer = Vec::new();
        let mut chunk = [0u8; 16384];
        let mut parsed: Option<Head> = None;
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(io_error(TransportErrorKind::Timeout, "response timed out"));
            }
            stream.set_read_timeout(Some(remaining)).map_err(classify)?;
            let read = stream.read(&mut chunk).map_err(classify)?;
            buffer.extend_from_slice(&chunk[..read]);
            if parsed.is_none() {
                parsed = parse_head(&buffer)?;
            }
            if let Some(head) = &parsed {
                let body = &buffer[head.body_start..];
                let chunked = head.headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.to_ascii_lowercase().contains("chunked"));
                let length = head.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("content-length")).and_then(|(_, v)| v.parse::<usize>().ok());
                let complete = if chunked {
                    dechunk(body)?
                } else if let Some(length) = length {
                    if body.len() >= length {
                        Some(body[..length].to_vec())
                    } else {
                        None
                    }
                } else if read == 0 || head.status == 204 || head.status == 304 {
                    Some(body.to_vec())
                } else {
                    None
                };
                if let Some(body) = complete {
                    return Ok(HttpResponse { status: head.status, headers: head.headers.clone(), body });
                }
            }
            if read == 0 {
                return Err(io_error(TransportErrorKind::Io, "connection closed before the response was complete"));
            }
        }
    }
}
