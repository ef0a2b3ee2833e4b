"""eid-gateway's Python client: e-ID sessions, QR codes, listings, webhooks (docs/clients.md)."""

from ._version import __version__
from .client import EidGateway, Sessions, WebhookDeliveries, WebhookEndpoints
from .errors import EidGatewayError
from .webhooks import verify_webhook

__all__ = ["EidGateway", "EidGatewayError", "Sessions", "WebhookDeliveries", "WebhookEndpoints", "verify_webhook", "__version__"]
