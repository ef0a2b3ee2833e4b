"""Identify someone with the simulator and wait for the outcome.

    pip install ./clients/python
    EID_API_KEY=$(cat data/dev-api-key) python3 clients/python/examples/identify.py

Then open the printed launch link (the simulator's BankID app) and tap "Identify".
"""

import os
import sys

from eid_gateway import EidGateway, EidGatewayError


def main() -> int:
    base_url = os.environ.get("EID_GATEWAY_URL", "http://localhost:3000")
    try:
        with EidGateway(os.environ["EID_API_KEY"], "test", base_url=base_url) as gateway:
            session = gateway.sessions.start_auth("simulator", end_user_ip="192.0.2.10", metadata={"orderId": "A-1001"})
            print(f"Open the simulated app and approve: {session['launchUrl']}")
            print(f"Or show the rotating QR on a screen: {session['kioskUrl']}")
            result = gateway.sessions.wait_for_result(
                session["sessionId"],
                on_update=lambda state: print(state["status"], state.get("hintCode", ""), state.get("userMessage", {}).get("en", "")),
            )
    except EidGatewayError as error:
        print(f"eid-gateway refused: {error.status} {error.code} {error.detail or error}", file=sys.stderr)
        return 1
    if result["status"] == "complete":
        print(f"Identified {result['user']['name']} ({result['user']['personalNumber']})")
    else:
        print(f"Failed: {result['hintCode']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
