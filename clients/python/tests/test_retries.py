"""Against the running service: a 429 waited out by its Retry-After, and a timeout.

Runs before test_service.py (unittest loads modules by name): EIDGW_LIMITED_API_KEY is at its
per-minute limit for only a few more seconds when the suite starts.
"""

from __future__ import annotations

import time
import unittest
import uuid

from eid_gateway import EidGateway, EidGatewayError
from tests.support import BASE_URL, Receiver, env, needs_service


@needs_service
class RetriesTest(unittest.TestCase):
    def test_a_429_is_retried_after_its_retry_after(self) -> None:
        key = env("EIDGW_LIMITED_API_KEY")
        with EidGateway(key, "test", base_url=BASE_URL or "", max_retries=0) as impatient:
            with self.assertRaises(EidGatewayError) as raised:
                impatient.sessions.start_auth("simulator", end_user_ip="192.0.2.10")
        self.assertEqual((raised.exception.status, raised.exception.code), (429, "rate_limit_exceeded"))
        self.assertIsInstance(raised.exception.retry_after, int)

        started = time.monotonic()
        with EidGateway(key, "test", base_url=BASE_URL or "") as gateway, self.assertLogs("eid_gateway", "INFO") as logs:
            session = gateway.sessions.start_auth("simulator", end_user_ip="192.0.2.10")
        self.assertEqual(session["status"], "pending")
        self.assertIn("answered 429", logs.output[0])
        self.assertGreaterEqual(time.monotonic() - started, 1.0)

    def test_a_request_gives_up_after_its_timeout(self) -> None:
        silent = Receiver(hang=True)
        try:
            with EidGateway(env("EIDGW_API_KEY"), "test", base_url=silent.url, timeout=0.3) as gateway:
                started = time.monotonic()
                with self.assertRaises(EidGatewayError) as raised:
                    gateway.sessions.poll(str(uuid.uuid4()))
            self.assertEqual(raised.exception.code, "timeout")
            self.assertLess(time.monotonic() - started, 3)
            # What the service would have seen: the library and its version.
            self.assertRegex(silent.requests[0]["headers"]["user-agent"], r"^eid-gateway-client-python/\d+\.\d+\.\d+ python/")
        finally:
            silent.close()


if __name__ == "__main__":
    unittest.main()
