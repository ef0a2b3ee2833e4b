"""Against the running service: a whole flow with the simulator, the listing, webhooks, problem details."""

from __future__ import annotations

import struct
import threading
import unittest
import uuid
from typing import Any, Dict, List

from eid_gateway import EidGatewayError, verify_webhook
from tests.support import Receiver, env, gateway, needs_service, simulator

PERSON = {"personalNumber": "199001011239", "givenName": "Tess", "surname": "Testsson"}


@needs_service
class SessionsTest(unittest.TestCase):
    def test_start_qr_scan_and_wait_for_the_result(self) -> None:
        with gateway() as client:
            started = client.sessions.start_auth("simulator", end_user_ip="192.0.2.10", metadata={"orderId": "P-1"})
            self.assertEqual((started["status"], started["provider"]), ("pending", "simulator"))

            frame = client.sessions.qr(started["sessionId"])
            self.assertTrue(frame["qrData"].startswith(f"bankid.{started['qrStartToken']}."))
            png = client.sessions.qr_png(started["sessionId"], size=300)
            self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
            self.assertGreaterEqual(struct.unpack(">I", png[16:20])[0], 200)  # the IHDR width
            self.assertIn("<svg", client.sessions.qr_svg(started["sessionId"]))

            updates: List[Dict[str, Any]] = []
            frame = client.sessions.qr(started["sessionId"])
            scanned = threading.Timer(0.5, lambda: simulator("scan", {"qrData": frame["qrData"], **PERSON}))
            scanned.start()
            result = client.sessions.wait_for_result(started["sessionId"], on_update=updates.append)
            scanned.join()
            self.assertEqual(result["status"], "complete")
            self.assertEqual(result["user"]["personalNumber"], "199001011239")
            self.assertEqual(result["resultToken"].count("."), 2)
            self.assertEqual(updates[0]["hintCode"], "outstandingTransaction")
            self.assertEqual(updates[-1]["status"], "complete")
            self.assertIn("keys", client.jwks())

            with self.assertRaises(EidGatewayError) as raised:
                client.sessions.qr(started["sessionId"])
            self.assertEqual((raised.exception.status, raised.exception.code), (409, "session_not_pending"))

    def test_sign_phone_and_payment_sessions_and_cancel(self) -> None:
        with gateway() as client:
            sign = client.sessions.start_sign("simulator", end_user_ip="192.0.2.10", user_visible_data="Jag godkänner avtalet.")
            phone = client.sessions.start_phone_auth("simulator", personal_number="198112189876", call_initiator="RP")
            phone_sign = client.sessions.start_phone_sign(
                "simulator", personal_number="198112189876", call_initiator="user", user_visible_data="Jag godkänner flytten."
            )
            payment = client.sessions.start_payment(
                "simulator",
                end_user_ip="192.0.2.10",
                user_visible_transaction={"transactionType": "npa", "recipient": {"name": "Acme AB"}},
            )
            expected = [(sign, "sign", "app"), (phone, "auth", "phone"), (phone_sign, "sign", "phone"), (payment, "payment", "app")]
            for session, operation, channel in expected:
                state = client.sessions.poll(session["sessionId"])
                self.assertEqual((state["operation"], state["channel"], state["status"]), (operation, channel, "pending"))

            stop = threading.Event()
            stop.set()
            with self.assertRaises(EidGatewayError) as stopped:
                client.sessions.wait_for_result(sign["sessionId"], stop=stop)
            self.assertEqual(stopped.exception.code, "cancelled")
            self.assertEqual(client.sessions.cancel(sign["sessionId"])["hintCode"], "cancelled")

    def test_problem_details_become_eid_gateway_errors(self) -> None:
        with gateway() as client:
            with self.assertRaises(EidGatewayError) as missing:
                client.sessions.poll(str(uuid.uuid4()))
            self.assertEqual((missing.exception.status, missing.exception.code), (404, "session_not_found"))
            self.assertEqual(missing.exception.type, "urn:eid-gateway:problem:session_not_found")

            with self.assertRaises(EidGatewayError) as invalid:
                client.sessions.start_auth("simulator", end_user_ip="not an address")
            self.assertEqual((invalid.exception.status, invalid.exception.code), (400, "validation_failed"))
            self.assertIn("/endUserIp", [error.get("pointer") for error in invalid.exception.errors])
            self.assertNotIn(env("EIDGW_API_KEY"), str(invalid.exception) + repr(invalid.exception))

    def test_the_listing_is_iterated_across_pages(self) -> None:
        with gateway() as client:
            started = {client.sessions.start_auth("simulator", end_user_ip="192.0.2.10")["sessionId"] for _ in range(3)}
            rows = list(client.sessions.list(page_size=2))
            listed = [row["sessionId"] for row in rows]
            self.assertEqual(len(listed), len(set(listed)))
            self.assertTrue(started <= set(listed))
            self.assertGreater(len(listed), 2)
            self.assertEqual({row["environment"] for row in rows}, {"test"})


@needs_service
class WebhooksTest(unittest.TestCase):
    def setUp(self) -> None:
        self.receiver = Receiver()

    def tearDown(self) -> None:
        self.receiver.close()

    def test_a_delivery_verifies_is_listed_and_redelivered(self) -> None:
        with gateway() as client:
            endpoint = client.webhook_endpoints.create(f"{self.receiver.url}/hooks", description="python client test")
            self.assertTrue(endpoint["secret"].startswith("whsec_"))
            self.assertIn(endpoint["id"], [e["id"] for e in client.webhook_endpoints.list()])
            try:
                started = client.sessions.start_auth("simulator", end_user_ip="192.0.2.10", metadata={"orderId": "PY-1"})
                simulator("scan", {"autoStartToken": started["autoStartToken"]})
                session_id = started["sessionId"].encode()
                delivery = self.receiver.wait_for(lambda r: session_id in r["body"])
                assert delivery is not None, "no webhook arrived"
                event = verify_webhook(delivery["headers"], delivery["body"], endpoint["secret"])
                self.assertEqual(event["type"], "auth.session.completed")
                self.assertEqual(event["data"]["metadata"], {"orderId": "PY-1"})
                with self.assertRaises(EidGatewayError):
                    verify_webhook(delivery["headers"], delivery["body"].replace(b"PY-1", b"PY-2"), endpoint["secret"])

                by_session = {"sessionId": {"filterType": "text", "type": "equals", "filter": started["sessionId"]}}
                rows = list(client.webhook_deliveries.list(filter_model=by_session))
                self.assertEqual([row["messageId"] for row in rows], [delivery["headers"]["webhook-id"]])
                client.webhook_deliveries.redeliver(rows[0]["id"])
                again = self.receiver.wait_for(lambda r: session_id in r["body"] and r is not delivery)
                assert again is not None, "no redelivery arrived"
                self.assertEqual(again["headers"]["webhook-id"], delivery["headers"]["webhook-id"])
                self.assertEqual(verify_webhook(again["headers"], again["body"], endpoint["secret"])["type"], "auth.session.completed")
            finally:
                client.webhook_endpoints.delete(endpoint["id"])
            self.assertNotIn(endpoint["id"], [e["id"] for e in client.webhook_endpoints.list()])


if __name__ == "__main__":
    unittest.main()
