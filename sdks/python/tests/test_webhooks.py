"""Every shared webhook vector (sdks/webhook-vectors.json) must give the reference's outcome."""
import json
import os
import unittest

from fincore import WebhookVerificationError, verify_webhook

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS_PATH = os.environ.get("FC_WEBHOOK_VECTORS") or os.path.join(HERE, "..", "..", "webhook-vectors.json")


def number(value):
    """Vectors spell non-finite numbers as strings."""
    return float(value) if isinstance(value, str) else value


def outcome(vector):
    try:
        event = verify_webhook(
            vector["body"],
            vector["signature"],
            vector["timestamp"],
            vector["secrets"],
            tolerance_seconds=number(vector["tolerance_seconds"]),
            now=number(vector["now"]),
        )
    except WebhookVerificationError as failure:
        return {"ok": False, "reason": failure.reason}
    except ValueError:
        return {"error": "invalid_argument"}
    return {"ok": True, "event_type": event.type}


class WebhookVectorsTest(unittest.TestCase):
    def test_every_vector_matches_the_reference(self):
        with open(VECTORS_PATH, encoding="utf-8") as handle:
            vectors = json.load(handle)["vectors"]
        self.assertGreater(len(vectors), 0)
        for vector in vectors:
            with self.subTest(vector["name"]):
                self.assertEqual(outcome(vector), vector["expected"])

    def test_bytes_and_repeated_headers(self):
        import hashlib
        import hmac

        body = b'{"id":"evt_1","type":"item.error","created":1700000000,"data":{}}'
        signature = "v1=" + hmac.new(b"whsec_a", b"1700000000." + body, hashlib.sha256).hexdigest()
        event = verify_webhook(body, ["v1=" + "0" * 64, signature], ["1700000000", "1700000000"], "whsec_a", now=1700000000)
        self.assertEqual(event.type, "item.error")
        with self.assertRaises(WebhookVerificationError) as caught:
            verify_webhook(body, signature, "1700000000", ["whsec_b"], now=1700000000)
        self.assertEqual(caught.exception.reason, "signature_mismatch")


if __name__ == "__main__":
    unittest.main()
