"""The one error type every API call raises."""
from __future__ import annotations

from typing import Any, Dict, Optional


class FincoreError(Exception):
    """An API error answer, or a request that got no answer.

    status: the HTTP status (0 when no answer arrived: network error or timeout).
    type / code: from the API's error table (`invalid_request` / `invalid_field`, ...); for no answer,
        type `connection_error` and code `timeout` or `network_error`.
    message: the human-readable explanation.
    request_id: the server's request id (X-Request-Id), quote it to support; None without an answer.
    retry_after: seconds from the Retry-After header, when the server sent one.
    documentation_url: where the code is explained ({base_url}/docs/errors#<code>); None without an envelope.
    display_message: a sentence safe to show your end user; None when the error is the integration's to fix.
    """

    def __init__(
        self,
        status: int,
        type: str,
        code: str,
        message: str,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        body: Optional[Dict[str, Any]] = None,
        documentation_url: Optional[str] = None,
        display_message: Optional[str] = None,
    ) -> None:
        super().__init__(f"{status} {type}/{code}: {message}" + (f" (request {request_id})" if request_id else ""))
        self.status = status
        self.type = type
        self.code = code
        self.message = message
        self.request_id = request_id
        self.retry_after = retry_after
        self.body = body
        self.documentation_url = documentation_url
        self.display_message = display_message
