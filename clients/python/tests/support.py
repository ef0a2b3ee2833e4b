"""What the tests against the running service share: its address and credentials, a receiver, the simulator.

The jest test test/e2e/clients/python-client.e2e-spec.ts starts the service and runs this suite with
EIDGW_BASE_URL, EIDGW_API_KEY (a test key of a `pro` team), EIDGW_ACCESS_TOKEN (a member of that team)
and EIDGW_LIMITED_API_KEY (a key at its per-minute limit for a few more seconds).
"""

from __future__ import annotations

import http.server
import json
import os
import threading
import unittest
import urllib.request
from typing import Any, Dict, List, Optional

from eid_gateway import EidGateway

BASE_URL = os.environ.get("EIDGW_BASE_URL")
needs_service = unittest.skipUnless(BASE_URL, "EIDGW_BASE_URL is not set: no running service to test against")


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise unittest.SkipTest(f"{name} is not set")
    return value


def gateway(**options: Any) -> EidGateway:
    return EidGateway(env("EIDGW_API_KEY"), "test", base_url=BASE_URL or "", access_token=env("EIDGW_ACCESS_TOKEN"), **options)


def simulator(path: str, body: Dict[str, Any]) -> Dict[str, Any]:
    """The end user's e-ID app: the simulator's routes take no key (docs/api.md, "Simulator")."""
    request = urllib.request.Request(
        f"{BASE_URL}/api/v1/simulator/{path}", data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


class Receiver:
    """A real HTTP server on loopback: the RP's webhook endpoint, or a server that never answers."""

    def __init__(self, hang: bool = False) -> None:
        self.requests: List[Dict[str, Any]] = []
        self.arrived = threading.Condition()
        self._release = threading.Event()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self._record()

            def do_GET(self) -> None:
                self._record()

            def _record(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                with receiver.arrived:
                    receiver.requests.append({"headers": {k.lower(): v for k, v in self.headers.items()}, "body": body, "path": self.path})
                    receiver.arrived.notify_all()
                if hang:
                    receiver._release.wait(30)
                    return
                self.send_response(200)
                self.send_header("content-length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *_: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def wait_for(self, predicate: Any, timeout: float = 20.0) -> Optional[Dict[str, Any]]:
        with self.arrived:
            found = self.arrived.wait_for(lambda: next((r for r in self.requests if predicate(r)), None), timeout)
        return found

    def close(self) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
