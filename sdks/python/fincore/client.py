"""The client: one transport, nine method groups (generated in _groups.py)."""
from __future__ import annotations

import time
from typing import Callable, Optional

from ._groups import GeneratedClient
from ._transport import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_SECONDS, Transport


class Client(GeneratedClient):
    """Fincore API client.

    client = Client(api_key="fc_sk_test_...", base_url="http://localhost:4010")
    client.accounts.get(access_token="fc_at_...")

    timeout: seconds per attempt (default 30). max_retries: extra attempts after a 429, or after a
    5xx / network error on a retry-safe call (default 2); a monthly-quota 429 or a Retry-After over
    60 s is raised at once. sleep: how to wait between attempts
    (tests pass a recorder instead of sleeping). api_version: sent as FC-Version when given.
    """

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        max_retries: int = DEFAULT_MAX_RETRIES,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
        api_version: Optional[str] = None,
    ) -> None:
        self.transport = Transport(
            api_key,
            base_url,
            timeout=timeout,
            max_retries=max_retries,
            backoff_base=backoff_base,
            backoff_max=backoff_max,
            sleep=sleep,
            api_version=api_version,
        )
        super().__init__(self.transport)
