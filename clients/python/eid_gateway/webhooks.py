"""Webhook verification by the Standard Webhooks rule (docs/webhooks.md).

The rule is an HMAC-SHA256 with the standard library's ``hmac``; only its framing is written here:
the signed content ``{webhook-id}.{webhook-timestamp}.{body}``, the key as the base64 after ``whsec_``,
and the header's space-separated ``v1,<base64>`` signatures (two during a secret rotation).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Union

from .errors import EidGatewayError

# The library's default tolerance: a delivery older or newer than five minutes is refused (replays).
TOLERANCE_SECONDS = 5 * 60


def verify_webhook(
    headers: Mapping[str, Any],
    body: Union[bytes, str],
    secret: str,
    *,
    tolerance: int = TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Checks a delivery and answers its event. Pass the body exactly as received, before any parsing."""
    message_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not (message_id and timestamp and signatures):
        raise _refused("missing webhook-id, webhook-timestamp or webhook-signature")
    try:
        sent_at = int(timestamp)
    except ValueError:
        raise _refused("webhook-timestamp is not a number") from None
    if abs((time.time() if now is None else now) - sent_at) > tolerance:
        raise _refused("webhook-timestamp is too old or too new")

    payload = body if isinstance(body, bytes) else body.encode("utf-8")
    signed = b".".join([message_id.encode("utf-8"), timestamp.encode("utf-8"), payload])
    expected = base64.b64encode(hmac.new(_key(secret), signed, hashlib.sha256).digest())
    for candidate in signatures.split(" "):
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode("utf-8"), expected):
            return json.loads(payload)
    raise _refused("no signature matches")


def _key(secret: str) -> bytes:
    encoded = secret[len("whsec_") :] if secret.startswith("whsec_") else secret
    try:
        return base64.b64decode(encoded, validate=True)
    except binascii.Error:
        raise EidGatewayError("The webhook secret is not whsec_ and base64", code="invalid_webhook_signature") from None


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    for key, value in headers.items():
        if key.lower() == name:
            return " ".join(value) if isinstance(value, (list, tuple)) else str(value)
    return None


def _refused(reason: str) -> EidGatewayError:
    return EidGatewayError(f"The webhook did not verify: {reason}", code="invalid_webhook_signature")
