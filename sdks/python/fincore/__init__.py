"""Fincore API client library (standard library only)."""
from . import models
from ._groups import API_VERSION
from .client import Client
from .errors import FincoreError
from .webhooks import (
    DEFAULT_TOLERANCE_SECONDS,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    WebhookEvent,
    WebhookVerificationError,
    verify_webhook,
)

__version__ = "0.1.0"

__all__ = [
    "API_VERSION",
    "Client",
    "DEFAULT_TOLERANCE_SECONDS",
    "FincoreError",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "WebhookEvent",
    "WebhookVerificationError",
    "models",
    "verify_webhook",
]
