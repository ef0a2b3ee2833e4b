"""HTTP for the client: one kept-alive connection, a timeout, problem details, 429/503 retried."""

from __future__ import annotations

import email.utils
import http.client
import json
import logging
import platform
import socket
import threading
import time
import urllib.parse
from typing import Any, Dict, Mapping, Optional, Tuple

from ._version import __version__
from .errors import EidGatewayError

USER_AGENT = f"eid-gateway-client-python/{__version__} python/{platform.python_version()}"
# Without Retry-After (a 503 of a proxy), the waits before the first and second retry.
_FALLBACK_DELAYS = (0.5, 2.0)

logger = logging.getLogger("eid_gateway")


class Transport:
    def __init__(
        self,
        base_url: str,
        api_key: str,
        access_token: Optional[str],
        timeout: float,
        max_retries: int,
        max_retry_delay: float,
    ) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError("base_url must be an http or https URL")
        self._parsed = parsed
        self._api_key = api_key
        self._access_token = access_token
        self._timeout = timeout
        self._max_retries = max_retries
        self._max_retry_delay = max_retry_delay
        self._connection: Optional[http.client.HTTPConnection] = None
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def json(self, method: str, path: str, auth: str, body: Any = None, query: Optional[Mapping[str, Any]] = None) -> Any:
        status, _, data = self.send(method, path, auth, body=body, query=query, accept="application/json")
        return None if status == 204 or not data else json.loads(data)

    def send(
        self,
        method: str,
        path: str,
        auth: str,
        *,
        body: Any = None,
        query: Optional[Mapping[str, Any]] = None,
        accept: str = "application/json",
    ) -> Tuple[int, Dict[str, str], bytes]:
        headers = self._headers(method, path, auth, body is not None, accept)
        target = self._target(path, query)
        payload = None if body is None else json.dumps(body).encode("utf-8")
        attempt = 0
        while True:
            status, answer_headers, data = self._attempt(method, path, target, headers, payload)
            if 200 <= status < 300:
                return status, answer_headers, data
            retry_after = _retry_after(answer_headers.get("retry-after"))
            delay = _FALLBACK_DELAYS[attempt] if retry_after is None and attempt < len(_FALLBACK_DELAYS) else retry_after
            retryable = status in (429, 503) and attempt < self._max_retries
            if not retryable or delay is None or delay > self._max_retry_delay:
                raise EidGatewayError.from_answer(status, _parse(data), retry_after)
            logger.info("eid-gateway answered %s to %s %s; retrying in %s s", status, method, path, delay)
            time.sleep(delay)
            attempt += 1

    def _attempt(
        self, method: str, path: str, target: str, headers: Dict[str, str], payload: Optional[bytes]
    ) -> Tuple[int, Dict[str, str], bytes]:
        with self._lock:
            for retry_stale in (True, False):
                reused = self._connection is not None
                connection = self._open()
                try:
                    connection.request(method, target, body=payload, headers=headers)
                    response = connection.getresponse()
                    data = response.read()
                    answer_headers = {name.lower(): value for name, value in response.getheaders()}
                    if response.will_close:
                        self._drop()
                    return response.status, answer_headers, data
                except socket.timeout:
                    self._drop()
                    raise EidGatewayError(f"{method} {path} got no answer within {self._timeout} s", code="timeout") from None
                except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as error:
                    # A kept-alive connection the server closed while it sat idle: once more on a new one.
                    # Not on a fresh connection: there the request may have been handled.
                    self._drop()
                    if not (retry_stale and reused):
                        raise EidGatewayError(f"{method} {path} failed: {error}", code="network_error") from None
                except (OSError, http.client.HTTPException) as error:
                    self._drop()
                    raise EidGatewayError(f"{method} {path} failed: {error}", code="network_error") from None
        raise AssertionError("unreachable")

    def _open(self) -> http.client.HTTPConnection:
        if self._connection is None:
            kind = http.client.HTTPSConnection if self._parsed.scheme == "https" else http.client.HTTPConnection
            self._connection = kind(self._parsed.hostname or "", self._parsed.port, timeout=self._timeout)
        return self._connection

    def _drop(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _headers(self, method: str, path: str, auth: str, has_body: bool, accept: str) -> Dict[str, str]:
        headers = {"user-agent": USER_AGENT, "accept": accept}
        if has_body:
            headers["content-type"] = "application/json"
        if auth == "api_key":
            headers["x-api-key"] = self._api_key
        elif auth == "member":
            if not self._access_token:
                raise EidGatewayError(
                    f"{method} {path} is a management route: pass access_token (a team member's token)",
                    code="access_token_required",
                )
            headers["authorization"] = f"Bearer {self._access_token}"
        return headers

    def _target(self, path: str, query: Optional[Mapping[str, Any]]) -> str:
        prefix = self._parsed.path.rstrip("/")
        pairs = {name: str(value) for name, value in (query or {}).items() if value is not None}
        return prefix + path + ("?" + urllib.parse.urlencode(pairs) if pairs else "")


def segment(value: str) -> str:
    """Path segments come from callers (session ids, providers): quoted so they never change the route."""
    return urllib.parse.quote(value, safe="")


def _retry_after(value: Optional[str]) -> Optional[int]:
    """Retry-After as delta-seconds or an HTTP date (RFC 9110, 10.2.3), in whole seconds from now."""
    if value is None:
        return None
    if value.strip().isdigit():
        return int(value.strip())
    try:
        at = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0, int(at - time.time() + 0.999))


def _parse(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return None
