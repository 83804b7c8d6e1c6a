"""Retries, backoff and error mapping against a tiny local HTTP stub (no real sleeping)."""
import json
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from fincore import Client, FincoreError, models


class Stub:
    """Answers queued (status, headers, body) in order and records each request."""

    def __init__(self):
        self.answers = []
        self.requests = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                stub.requests.append((self.path, dict(self.headers), json.loads(self.rfile.read(length) or b"null")))
                status, headers, body = stub.answers.pop(0) if stub.answers else (500, {}, {})
                raw = json.dumps(body).encode()
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def error_body(status_type, code, request_id="req_1"):
    return {"error": {"type": status_type, "code": code, "message": "m", "request_id": request_id}}


ITEM_OK = {"item": {"item_id": "it_1", "institution_id": "ins_1", "institution_name": "Bank", "status": "healthy",
                    "connector": "sandbox", "error": None, "consented_products": ["transactions"], "last_successful_sync": None,
                    "created_at": "2026-01-01T00:00:00Z", "transactions_update_status": "not_ready", "future_field": 1}}


class TransportTest(unittest.TestCase):
    def setUp(self):
        self.stub = Stub()
        self.delays = []
        self.client = Client("fc_sk_test_abcdefghijklmnop", self.stub.url, sleep=self.delays.append)

    def tearDown(self):
        self.stub.close()

    def test_sends_bearer_key_and_json_and_decodes_the_model(self):
        self.stub.answers.append((200, {}, ITEM_OK))
        answer = self.client.items.get(access_token="fc_at_x")
        self.assertIsInstance(answer, models.ItemsGetResponse)
        self.assertEqual(answer.item.institution_name, "Bank")
        self.assertEqual(answer.item.extra_fields, {"future_field": 1})
        path, headers, body = self.stub.requests[0]
        self.assertEqual(path, "/v1/items/get")
        self.assertEqual(headers["Authorization"], "Bearer fc_sk_test_abcdefghijklmnop")
        self.assertEqual(headers["Content-Type"], "application/json")
        self.assertEqual(body, {"access_token": "fc_at_x"})

    def test_optional_request_fields_are_omitted(self):
        self.stub.answers.append((200, {}, {"added": [], "modified": [], "removed": [], "next_cursor": "c", "has_more": False,
                                            "transactions_update_status": "not_ready"}))
        self.client.transactions.sync(access_token="fc_at_x", count=10)
        self.assertEqual(self.stub.requests[0][2], {"access_token": "fc_at_x", "count": 10})

    def test_429_honours_retry_after_even_on_an_unsafe_call(self):
        self.stub.answers += [(429, {"Retry-After": "3"}, error_body("rate_limit_error", "rate_limit_exceeded")),
                              (200, {}, {"access_token": "fc_at_1", "item_id": "it_1", "rotated": False})]
        answer = self.client.link.token_exchange(public_token="public-sandbox-1")
        self.assertEqual(answer.access_token, "fc_at_1")
        self.assertEqual(self.delays, [3.0])
        self.assertEqual(len(self.stub.requests), 2)

    def test_429_without_retry_after_backs_off_exponentially_then_gives_up(self):
        self.stub.answers += [(429, {}, error_body("rate_limit_error", "rate_limit_exceeded"))] * 3
        with self.assertRaises(FincoreError) as caught:
            self.client.items.get(access_token="fc_at_x")
        self.assertEqual(caught.exception.status, 429)
        self.assertEqual(self.delays, [0.5, 1.0])
        self.assertEqual(len(self.stub.requests), 3)

    def test_monthly_quota_429_is_never_retried_and_keeps_retry_after(self):
        for code in ("monthly_api_quota_exceeded", "monthly_ai_quota_exceeded"):
            with self.subTest(code=code):
                self.stub.requests.clear()
                self.stub.answers[:] = [(429, {"Retry-After": "30"}, error_body("rate_limit_error", code)), (200, {}, ITEM_OK)]
                with self.assertRaises(FincoreError) as caught:
                    self.client.items.get(access_token="fc_at_x")
                self.assertEqual((caught.exception.status, caught.exception.code, caught.exception.retry_after), (429, code, 30.0))
                self.assertEqual(self.delays, [])
                self.assertEqual(len(self.stub.requests), 1)

    def test_retry_after_over_60_seconds_is_raised_at_once_with_its_value(self):
        self.stub.answers += [(429, {"Retry-After": "61"}, error_body("rate_limit_error", "rate_limit_exceeded")), (200, {}, ITEM_OK)]
        with self.assertRaises(FincoreError) as caught:
            self.client.items.get(access_token="fc_at_x")
        self.assertEqual((caught.exception.status, caught.exception.retry_after), (429, 61.0))
        self.assertEqual(self.delays, [])
        self.assertEqual(len(self.stub.requests), 1)

    def test_retry_after_of_exactly_60_seconds_is_waited_out(self):
        self.stub.answers += [(503, {"Retry-After": "60"}, error_body("api_error", "storage_unavailable")), (200, {}, ITEM_OK)]
        self.assertEqual(self.client.items.get(access_token="fc_at_x").item.item_id, "it_1")
        self.assertEqual(self.delays, [60.0])

    def test_5xx_is_retried_on_a_safe_call(self):
        self.stub.answers += [(500, {}, error_body("api_error", "internal_error")), (503, {"Retry-After": "2"}, error_body("api_error", "storage_unavailable")),
                              (200, {}, ITEM_OK)]
        self.assertEqual(self.client.items.get(access_token="fc_at_x").item.item_id, "it_1")
        self.assertEqual(self.delays, [0.5, 2.0])

    def test_5xx_is_not_retried_on_an_unsafe_call(self):
        self.stub.answers += [(500, {}, error_body("api_error", "internal_error", "req_9")), (200, {}, {})]
        with self.assertRaises(FincoreError) as caught:
            self.client.link.token_exchange(public_token="public-sandbox-1")
        self.assertEqual((caught.exception.status, caught.exception.code, caught.exception.request_id), (500, "internal_error", "req_9"))
        self.assertEqual(len(self.stub.requests), 1)
        self.assertEqual(self.delays, [])

    def test_max_retries_is_configurable(self):
        client = Client("fc_sk_test_abcdefghijklmnop", self.stub.url, sleep=self.delays.append, max_retries=0)
        self.stub.answers += [(503, {}, error_body("api_error", "storage_unavailable"))]
        with self.assertRaises(FincoreError):
            client.items.get(access_token="fc_at_x")
        self.assertEqual(len(self.stub.requests), 1)

    def test_error_mapping_carries_every_field(self):
        self.stub.answers.append((400, {"X-Request-Id": "req_header"}, error_body("invalid_request", "invalid_field", "req_body")))
        with self.assertRaises(FincoreError) as caught:
            self.client.items.get(access_token="bad")
        error = caught.exception
        self.assertEqual((error.status, error.type, error.code, error.message, error.request_id), (400, "invalid_request", "invalid_field", "m", "req_body"))
        self.assertIsNone(error.retry_after)

    def test_error_without_json_body_still_has_status_and_request_id(self):
        self.stub.answers.append((502, {"X-Request-Id": "req_h"}, "bad gateway"))
        client = Client("fc_sk_test_abcdefghijklmnop", self.stub.url, sleep=self.delays.append, max_retries=0)
        with self.assertRaises(FincoreError) as caught:
            client.items.get(access_token="fc_at_x")
        self.assertEqual((caught.exception.status, caught.exception.type, caught.exception.request_id), (502, "api_error", "req_h"))

    def test_network_error_is_retried_only_when_safe(self):
        self.stub.close()
        with self.assertRaises(FincoreError) as caught:
            self.client.items.get(access_token="fc_at_x")
        self.assertEqual((caught.exception.status, caught.exception.type), (0, "connection_error"))
        self.assertEqual(self.delays, [0.5, 1.0])
        self.delays.clear()
        with self.assertRaises(FincoreError):
            self.client.link.token_exchange(public_token="p")
        self.assertEqual(self.delays, [])
        self.stub = Stub()  # tearDown closes one


class ModelsTest(unittest.TestCase):
    def test_keyword_field_is_renamed_and_mapped_to_its_wire_name(self):
        wire = [(a, w) for a, w, _, _ in models.LiabilitiesGetResponse._WIRE]
        self.assertTrue(all(a.isidentifier() for a, _ in wire))
        found = [m for m in vars(models).values() if isinstance(m, type) and issubclass(m, models.Model)
                 and any(w == "from" for _, w, _, _ in m._WIRE)]
        self.assertTrue(found)
        model = found[0]
        self.assertIn(("from_", "from"), [(a, w) for a, w, _, _ in model._WIRE])

    def test_required_request_fields_are_required(self):
        with self.assertRaises(TypeError):
            models.LinkTokenExchangeRequest()  # type: ignore[call-arg]


if __name__ == "__main__":
    unittest.main()
