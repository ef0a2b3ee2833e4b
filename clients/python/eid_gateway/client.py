"""The eid-gateway client (docs/clients.md)."""

from __future__ import annotations

import re
import threading
import time
from typing import Any, Callable, Dict, Iterator, List, Optional

from ._transport import Transport, segment
from .errors import EidGatewayError
from .webhooks import verify_webhook

JSON = Dict[str, Any]
ENVIRONMENTS = ("test", "live")
# The service's key format (docs/api.md): eidk_test_… or eidk_live_…, the environment in the prefix.
_KEY_PREFIX = re.compile(r"eidk_(test|live)_")


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _body(body: Optional[JSON], fields: Dict[str, Any]) -> JSON:
    """The request body: ``body`` as the API spells it (camelCase), plus keyword arguments in snake_case."""
    merged = dict(body or {})
    merged.update({_camel(name): value for name, value in fields.items()})
    return merged


def _list_all(
    transport: Transport,
    path: str,
    environment: str,
    filter_model: Optional[JSON],
    sort_model: Optional[List[JSON]],
    page_size: int,
) -> Iterator[JSON]:
    """Every row of a tabular listing (docs/listings.md), page by page, of the client's environment unless the filter names it."""
    filters: JSON = {"environment": {"filterType": "set", "values": [environment]}}
    filters.update(filter_model or {})
    start = 0
    while True:
        request: JSON = {"startRow": start, "endRow": start + page_size, "filterModel": filters}
        if sort_model is not None:
            request["sortModel"] = sort_model
        page = transport.json("POST", path, "member", body=request)
        yield from page["rows"]
        if page["lastrow"] != -1 or len(page["rows"]) < page_size:
            return
        start += page_size


class Sessions:
    """Sessions of every operation and channel: start, poll, cancel, the QR, the evidence, the listing."""

    def __init__(self, transport: Transport, environment: str) -> None:
        self._transport = transport
        self._environment = environment

    def start_auth(self, provider: str, body: Optional[JSON] = None, **fields: Any) -> JSON:
        """Identify the end user on their device, e.g. ``start_auth("simulator", end_user_ip="192.0.2.10")``."""
        return self._start(f"/api/v1/auth/{segment(provider)}/start", _body(body, fields))

    def start_sign(self, provider: str, body: Optional[JSON] = None, **fields: Any) -> JSON:
        return self._start(f"/api/v1/sign/{segment(provider)}/start", _body(body, fields))

    def start_phone_auth(self, provider: str, body: Optional[JSON] = None, **fields: Any) -> JSON:
        return self._start(f"/api/v1/phone/auth/{segment(provider)}/start", _body(body, fields))

    def start_phone_sign(self, provider: str, body: Optional[JSON] = None, **fields: Any) -> JSON:
        return self._start(f"/api/v1/phone/sign/{segment(provider)}/start", _body(body, fields))

    def start_payment(self, provider: str, body: Optional[JSON] = None, **fields: Any) -> JSON:
        return self._start(f"/api/v1/payment/{segment(provider)}/start", _body(body, fields))

    def poll(self, session_id: str) -> JSON:
        return self._transport.json("POST", f"{self._path(session_id)}/poll", "api_key")

    def cancel(self, session_id: str) -> JSON:
        return self._transport.json("POST", f"{self._path(session_id)}/cancel", "api_key")

    def confirm_return(self, session_id: str, nonce: str) -> JSON:
        """The same browser came back from the e-ID app with this nonce (docs/same-device.md)."""
        return self._transport.json("POST", f"{self._path(session_id)}/return", "api_key", body={"nonce": nonce})

    def evidence(self, session_id: str) -> JSON:
        return self._transport.json("GET", f"{self._path(session_id)}/evidence", "api_key")

    def qr(self, session_id: str) -> JSON:
        """The current QR frame as data (``qrData``); it changes every second."""
        return self._transport.json("GET", f"{self._path(session_id)}/qr", "api_key", query={"format": "json"})

    def qr_png(self, session_id: str, size: Optional[int] = None) -> bytes:
        return self._qr_image(session_id, "png", "image/png", size)

    def qr_svg(self, session_id: str, size: Optional[int] = None) -> str:
        return self._qr_image(session_id, "svg", "image/svg+xml", size).decode("utf-8")

    def wait_for_result(
        self,
        session_id: str,
        *,
        on_update: Optional[Callable[[JSON], None]] = None,
        stop: Optional[threading.Event] = None,
        interval: float = 2.0,
    ) -> JSON:
        """Polls every 2 s until the session is complete or failed and answers that final state.

        ``on_update`` gets each answer whose status or hintCode differs from the one before; setting
        ``stop`` (a threading.Event) ends the wait with EidGatewayError code ``cancelled``.
        """
        last = None
        while True:
            state = self.poll(session_id)
            seen = (state.get("status"), state.get("hintCode"))
            if seen != last and on_update is not None:
                on_update(state)
            last = seen
            if state.get("status") != "pending":
                return state
            if stop is not None:
                if stop.wait(interval):
                    raise EidGatewayError("Stopped waiting for the session's result", code="cancelled")
            else:
                time.sleep(interval)

    def list(self, *, filter_model: Optional[JSON] = None, sort_model: Optional[List[JSON]] = None, page_size: int = 100) -> Iterator[JSON]:
        """The team's sessions of this environment, without personal data, page by page (needs access_token)."""
        return _list_all(self._transport, "/api/v1/sessions", self._environment, filter_model, sort_model, page_size)

    def _qr_image(self, session_id: str, kind: str, accept: str, size: Optional[int]) -> bytes:
        query = {"format": kind, "size": size}
        return self._transport.send("GET", f"{self._path(session_id)}/qr", "api_key", query=query, accept=accept)[2]

    def _start(self, path: str, body: JSON) -> JSON:
        return self._transport.json("POST", path, "api_key", body=body)

    @staticmethod
    def _path(session_id: str) -> str:
        return f"/api/v1/auth/{segment(session_id)}"


class WebhookEndpoints:
    """The team's webhook endpoints of this environment (management API: access_token, plan ``pro``)."""

    def __init__(self, transport: Transport, environment: str) -> None:
        self._transport = transport
        self._environment = environment

    def list(self) -> List[JSON]:
        data = self._transport.json("GET", "/api/v1/webhook-endpoints", "member")["data"]
        return [endpoint for endpoint in data if endpoint.get("environment") == self._environment]

    def create(self, url: str, *, event_types: Optional[List[str]] = None, description: Optional[str] = None) -> JSON:
        """Registers an endpoint for this environment's sessions; the answer's ``secret`` is shown this once."""
        body: JSON = {"url": url, "environment": self._environment}
        if event_types is not None:
            body["eventTypes"] = event_types
        if description is not None:
            body["description"] = description
        return self._transport.json("POST", "/api/v1/webhook-endpoints", "member", body=body)

    def update(self, endpoint_id: str, body: Optional[JSON] = None, **fields: Any) -> JSON:
        return self._transport.json("PATCH", f"/api/v1/webhook-endpoints/{segment(endpoint_id)}", "member", body=_body(body, fields))

    def delete(self, endpoint_id: str) -> None:
        self._transport.send("DELETE", f"/api/v1/webhook-endpoints/{segment(endpoint_id)}", "member")

    def rotate_secret(self, endpoint_id: str) -> JSON:
        """A new secret; deliveries carry both signatures for 24 hours (docs/webhooks.md)."""
        return self._transport.json("POST", f"/api/v1/webhook-endpoints/{segment(endpoint_id)}/rotate-secret", "member")


class WebhookDeliveries:
    """The delivery log of this environment, and redelivery (management API: access_token, plan ``pro``)."""

    def __init__(self, transport: Transport, environment: str) -> None:
        self._transport = transport
        self._environment = environment

    def list(self, *, filter_model: Optional[JSON] = None, sort_model: Optional[List[JSON]] = None, page_size: int = 100) -> Iterator[JSON]:
        return _list_all(self._transport, "/api/v1/webhook-deliveries", self._environment, filter_model, sort_model, page_size)

    def redeliver(self, delivery_id: str) -> JSON:
        """Sends the message again under the same ``webhook-id``."""
        return self._transport.json("POST", f"/api/v1/webhook-deliveries/{segment(delivery_id)}/redeliver", "member")


class EidGateway:
    """The client. Use it as a context manager, or call ``close()``, to release its connection.

    ``api_key`` must be of ``environment`` (a key of the other one raises here, before any request);
    ``access_token`` (a team member's token) is needed for the listings and webhooks only.
    """

    def __init__(
        self,
        api_key: str,
        environment: str,
        *,
        base_url: str = "http://localhost:3000",
        access_token: Optional[str] = None,
        timeout: float = 10.0,
        max_retries: int = 2,
        max_retry_delay: float = 60.0,
    ) -> None:
        _check_key_environment(api_key, environment)
        self.environment = environment
        self.base_url = base_url.rstrip("/")
        self._transport = Transport(self.base_url, api_key, access_token, timeout, max_retries, max_retry_delay)
        self.sessions = Sessions(self._transport, environment)
        self.webhook_endpoints = WebhookEndpoints(self._transport, environment)
        self.webhook_deliveries = WebhookDeliveries(self._transport, environment)

    def __enter__(self) -> "EidGateway":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EidGateway(environment={self.environment!r}, base_url={self.base_url!r})"

    def close(self) -> None:
        self._transport.close()

    def jwks(self) -> JSON:
        """The public keys that verify result tokens and member tokens (see the README on result tokens)."""
        return self._transport.json("GET", "/.well-known/jwks.json", "none")

    @staticmethod
    def verify_webhook(headers: Any, body: Any, secret: str) -> JSON:
        return verify_webhook(headers, body, secret)


def _check_key_environment(api_key: str, environment: str) -> None:
    if environment not in ENVIRONMENTS:
        raise EidGatewayError('environment must be "test" or "live"', code="environment_mismatch")
    match = _KEY_PREFIX.match(api_key or "")
    if match is None:
        raise EidGatewayError("api_key is not an eid-gateway API key (eidk_test_… or eidk_live_…)", code="invalid_api_key_format")
    if match.group(1) != environment:
        raise EidGatewayError(
            f"The API key is a {match.group(1)} key but the client was made for the {environment} environment",
            code="environment_mismatch",
        )
