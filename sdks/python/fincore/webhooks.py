"""Webhook signature verification (the same checks, in the same order, as the service's reference).

Each delivery carries `FC-Timestamp: <Unix seconds>` and
`FC-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + raw body)>[,v1=<hex>...]` (one entry
per active signing secret during a rotation).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
import time
from dataclasses import dataclass
from typing import Any, Dict, Optional, Sequence, Union

SIGNATURE_HEADER = "FC-Signature"
TIMESTAMP_HEADER = "FC-Timestamp"
DEFAULT_TOLERANCE_SECONDS = 300

_HEX_SIGNATURE = re.compile(r"[0-9a-fA-F]{64}")
_TIMESTAMP = re.compile(r"[0-9]{1,15}")
# The characters JavaScript's String.prototype.trim removes: header values are trimmed exactly as
# the reference implementation does, so every library reaches the same verdict.
_JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

HeaderValue = Union[str, Sequence[str], None]


@dataclass(frozen=True)
class WebhookEvent:
    id: str
    type: str
    created: float
    data: Dict[str, Any]


class WebhookVerificationError(Exception):
    """The delivery is not authentic or not well formed. `reason` is one of: missing_signature,
    missing_timestamp, malformed_timestamp, malformed_signature, signature_mismatch,
    timestamp_outside_window, invalid_body."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"webhook verification failed: {reason}")
        self.reason = reason


def _header_text(value: HeaderValue) -> Optional[str]:
    if value is None:
        return None
    values = [value] if isinstance(value, str) else list(value)
    parts = [v.strip(_JS_WHITESPACE) for v in values]
    parts = [p for p in parts if p != ""]
    return ",".join(parts) if parts else None


def _signatures(header: str) -> Optional[list]:
    found = []
    for part in header.split(","):
        entry = part.strip(_JS_WHITESPACE)
        eq = entry.find("=")
        if eq <= 0:
            return None
        scheme, value = entry[:eq], entry[eq + 1 :]
        if scheme != "v1":
            continue  # other schemes are for other verifiers
        if not _HEX_SIGNATURE.fullmatch(value):
            return None
        found.append(bytes.fromhex(value))
    return found or None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


def _event(raw: bytes) -> Optional[WebhookEvent]:
    try:
        value = json.loads(raw.decode("utf-8", errors="replace"), parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    event_id, event_type, created, data = value.get("id"), value.get("type"), value.get("created"), value.get("data")
    if not isinstance(event_id, str) or event_id == "" or not isinstance(event_type, str) or event_type == "":
        return None
    if isinstance(created, bool) or not isinstance(created, (int, float)):
        return None
    try:
        created_number = float(created)
    except OverflowError:
        return None
    if not math.isfinite(created_number) or not isinstance(data, dict):
        return None
    return WebhookEvent(id=event_id, type=event_type, created=created, data=data)


def _finite_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)


def verify_webhook(
    raw_body: Union[bytes, str],
    signature: HeaderValue,
    timestamp: HeaderValue,
    secrets: Union[str, Sequence[str], None] = None,
    *,
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> WebhookEvent:
    """Verify one delivery and return its event; raise WebhookVerificationError(reason) when it fails.

    raw_body: the body exactly as received (bytes, or the text it decodes to).
    signature / timestamp: the FC-Signature and FC-Timestamp header values (a list when repeated).
    secrets: the signing secret, or several (during a rotation any one of them may match).
    tolerance_seconds: allowed clock distance, either direction (default 300).
    now: the receiver's clock in Unix seconds (default: time.time()).
    Raises ValueError for arguments that are programming errors: no non-empty secret, or a
    tolerance / now that is not a finite number (NaN would otherwise switch the window off).
    """
    secret_list = [secrets] if isinstance(secrets, str) else list(secrets or [])
    secret_list = [s for s in secret_list if s != ""]
    if not secret_list:
        raise ValueError("verify_webhook needs a non-empty secret")
    if not _finite_number(tolerance_seconds) or tolerance_seconds < 0:
        raise ValueError("tolerance_seconds must be a finite number of seconds, 0 or more")
    if now is None:
        now = time.time()
    if not _finite_number(now):
        raise ValueError("now must be a finite number of Unix seconds")
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else bytes(raw_body)

    signature_header = _header_text(signature)
    if signature_header is None:
        raise WebhookVerificationError("missing_signature")
    timestamp_header = _header_text(timestamp)
    if timestamp_header is None:
        raise WebhookVerificationError("missing_timestamp")

    # A repeated FC-Timestamp header is acceptable only when every copy is the same value.
    stamps = {s.strip(_JS_WHITESPACE) for s in timestamp_header.split(",")}
    stamp = next(iter(stamps))
    if len(stamps) != 1 or not _TIMESTAMP.fullmatch(stamp):
        raise WebhookVerificationError("malformed_timestamp")

    given = _signatures(signature_header)
    if given is None:
        raise WebhookVerificationError("malformed_signature")

    matched = False
    for secret in secret_list:
        expected = hmac.new(secret.encode("utf-8"), stamp.encode("ascii") + b"." + body, hashlib.sha256).digest()
        # Every pair is compared (no early exit): timing says nothing about which entry matched.
        for candidate in given:
            if hmac.compare_digest(candidate, expected):
                matched = True
    if not matched:
        raise WebhookVerificationError("signature_mismatch")

    if abs(now - int(stamp)) > tolerance_seconds:
        raise WebhookVerificationError("timestamp_outside_window")

    event = _event(body)
    if event is None:
        raise WebhookVerificationError("invalid_body")
    return event
