"""HTTP transport: bearer auth, JSON, timeouts and retries (standard library only)."""
from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, Optional, Type

from .errors import FincoreError

DEFAULT_BASE_URL = "https://api.fincore.dev"
DEFAULT_TIMEOUT_SECONDS = 30.0
DEFAULT_MAX_RETRIES = 2
# The longest Retry-After (seconds) the client waits out; a longer wait is the caller's decision.
MAX_RETRY_AFTER_SECONDS = 60.0
# 429 codes a short wait cannot clear: the quota resets on the first of next month, and the
# Retry-After of these answers is the time until then.
MONTHLY_QUOTA_CODES = frozenset({"monthly_api_quota_exceeded", "monthly_ai_quota_exceeded"})


def retry_after_seconds(value: Optional[str]) -> Optional[float]:
    """Retry-After as seconds; None when absent or not a number (the HTTP-date form is not used by the API)."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return seconds if seconds >= 0 and seconds == seconds and seconds != float("inf") else None


class Transport:
    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        max_retries: int = DEFAULT_MAX_RETRIES,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
        api_version: Optional[str] = None,
        user_agent: str = "fincore-python",
    ) -> None:
        if not api_key:
            raise ValueError("api_key is required")
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.sleep = sleep
        self.api_version = api_version
        self.user_agent = user_agent

    def backoff(self, attempt: int) -> float:
        """Exponential: base, 2*base, 4*base, ... capped at backoff_max."""
        return min(self.backoff_max, self.backoff_base * (2 ** attempt))

    def call(self, method: str, path: str, body: Optional[Dict[str, Any]], response_model: Type[Any], retry_safe: bool) -> Any:
        data = self.request(method, path, body, retry_safe)
        return response_model.from_dict(data if isinstance(data, dict) else {})

    def request(self, method: str, path: str, body: Optional[Dict[str, Any]], retry_safe: bool) -> Any:
        payload = json.dumps({} if body is None else body).encode("utf-8") if method != "GET" else None
        headers = {
            "Authorization": f"Bearer {self.api_key}",
            "Accept": "application/json",
            "User-Agent": self.user_agent,
        }
        if payload is not None:
            headers["Content-Type"] = "application/json"
        if self.api_version:
            headers["FC-Version"] = self.api_version
        attempt = 0
        while True:
            try:
                return self._send(method, path, payload, headers)
            except FincoreError as error:
                # 429: the request was refused and did nothing, so it is safe to repeat (unless it is
                # a used-up monthly quota). 5xx and no answer: the outcome is unknown, so only a
                # retry-safe call repeats. A Retry-After over the cap is raised with its value.
                retryable = (error.status == 429 and error.code not in MONTHLY_QUOTA_CODES) or (
                    retry_safe and (error.status >= 500 or error.status == 0))
                wait_too_long = error.retry_after is not None and error.retry_after > MAX_RETRY_AFTER_SECONDS
                if not retryable or wait_too_long or attempt >= self.max_retries:
                    raise
                delay = error.retry_after if error.retry_after is not None else self.backoff(attempt)
                self.sleep(delay)
                attempt += 1

    def _send(self, method: str, path: str, payload: Optional[bytes], headers: Dict[str, str]) -> Any:
        request = urllib.request.Request(self.base_url + path, data=payload, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
                request_id = response.headers.get("X-Request-Id")
        except urllib.error.HTTPError as http_error:
            raise self._error_from_answer(http_error.code, http_error.headers, http_error.read()) from None
        except (socket.timeout, TimeoutError) as timeout_error:
            raise FincoreError(0, "connection_error", "timeout", f"no answer within {self.timeout} s: {timeout_error}") from None
        except (urllib.error.URLError, ConnectionError, OSError) as network_error:
            reason = getattr(network_error, "reason", network_error)
            code = "timeout" if isinstance(reason, (socket.timeout, TimeoutError)) else "network_error"
            raise FincoreError(0, "connection_error", code, f"{method} {path} failed: {reason}") from None
        try:
            return json.loads(raw.decode("utf-8")) if raw else {}
        except ValueError:
            raise FincoreError(200, "api_error", "invalid_response", "the answer is not JSON", request_id) from None

    @staticmethod
    def _error_from_answer(status: int, headers: Any, raw: bytes) -> FincoreError:
        request_id = headers.get("X-Request-Id") if headers is not None else None
        retry_after = retry_after_seconds(headers.get("Retry-After")) if headers is not None else None
        body: Any = None
        try:
            body = json.loads(raw.decode("utf-8")) if raw else None
        except ValueError:
            body = None
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, dict):
            return FincoreError(
                status,
                str(error.get("type") or "api_error"),
                str(error.get("code") or "unknown"),
                str(error.get("message") or ""),
                error.get("request_id") or request_id,
                retry_after,
                body,
                error.get("documentation_url") or None,
                error.get("display_message") or None,
            )
        return FincoreError(status, "api_error", f"http_{status}", f"HTTP {status} without an error body", request_id, retry_after, None)
