"""What the client decides without the service: keys, secrets in repr, webhook signatures."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
import unittest

from eid_gateway import EidGateway, EidGatewayError, verify_webhook

TEST_KEY = "eidk_test_" + "a" * 38
LIVE_KEY = "eidk_live_" + "b" * 38
SECRET = "whsec_" + base64.b64encode(b"k" * 32).decode()


def signed(body: bytes, secret: str = SECRET, message_id: str = "msg_1", at: int = 0) -> dict:
    timestamp = str(at or int(time.time()))
    key = base64.b64decode(secret[len("whsec_") :])
    signature = base64.b64encode(hmac.new(key, f"{message_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()).decode()
    return {"Webhook-Id": message_id, "Webhook-Timestamp": timestamp, "Webhook-Signature": f"v1,{signature}"}


class KeysTest(unittest.TestCase):
    def test_a_key_of_the_other_environment_raises_before_any_request(self) -> None:
        with self.assertRaises(EidGatewayError) as raised:
            EidGateway(LIVE_KEY, "test", base_url="http://127.0.0.1:9")
        self.assertEqual(raised.exception.code, "environment_mismatch")
        self.assertIsNone(raised.exception.status)
        self.assertNotIn(LIVE_KEY, str(raised.exception) + repr(raised.exception))

    def test_something_that_is_not_a_key_raises(self) -> None:
        with self.assertRaises(EidGatewayError) as raised:
            EidGateway("sk_test_123", "test")
        self.assertEqual(raised.exception.code, "invalid_api_key_format")

    def test_neither_key_nor_token_appears_in_repr(self) -> None:
        with EidGateway(TEST_KEY, "test", access_token="member.token.secret") as gateway:
            shown = repr(gateway) + str(gateway) + repr(gateway.sessions) + repr(gateway._transport)
        self.assertNotIn(TEST_KEY, shown)
        self.assertNotIn("member.token.secret", shown)

    def test_management_routes_need_a_member_token(self) -> None:
        with EidGateway(TEST_KEY, "test", base_url="http://127.0.0.1:9") as gateway:
            with self.assertRaises(EidGatewayError) as raised:
                next(gateway.sessions.list())
        self.assertEqual(raised.exception.code, "access_token_required")


class VerifyWebhookTest(unittest.TestCase):
    body = b'{"type":"auth.session.completed","data":{"sessionId":"s-1"}}'

    def test_accepts_a_signed_delivery(self) -> None:
        self.assertEqual(verify_webhook(signed(self.body), self.body, SECRET)["data"]["sessionId"], "s-1")

    def test_accepts_either_signature_during_a_rotation(self) -> None:
        other = "whsec_" + base64.b64encode(b"o" * 32).decode()
        headers = signed(self.body)
        headers["Webhook-Signature"] = signed(self.body, other)["Webhook-Signature"] + " " + headers["Webhook-Signature"]
        self.assertEqual(verify_webhook(headers, self.body.decode(), SECRET)["type"], "auth.session.completed")

    def test_refuses_a_changed_body_another_secret_and_an_old_timestamp(self) -> None:
        other = "whsec_" + base64.b64encode(b"o" * 32).decode()
        for headers, body in [
            (signed(self.body), self.body.replace(b"s-1", b"s-2")),
            (signed(self.body, other), self.body),
            (signed(self.body, at=int(time.time()) - 600), self.body),
            ({}, self.body),
        ]:
            with self.assertRaises(EidGatewayError) as raised:
                verify_webhook(headers, body, SECRET)
            self.assertEqual(raised.exception.code, "invalid_webhook_signature")
            self.assertNotIn(SECRET, str(raised.exception))


if __name__ == "__main__":
    unittest.main()
