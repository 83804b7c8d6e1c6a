"""Smoke test against a running Fincore service (see bin/sdks/language.ts for the journey).

Environment: FC_BASE_URL, FC_API_KEY and a captured webhook delivery (FC_WEBHOOK_SECRET,
FC_WEBHOOK_BODY_FILE, FC_WEBHOOK_SIGNATURE, FC_WEBHOOK_TIMESTAMP, FC_WEBHOOK_TYPE).
Prints one line `SMOKE {json}` and exits 0, or fails loudly.
"""
import json
import os
import sys
import time

from fincore import Client, FincoreError, verify_webhook

UNKNOWN_ACCESS_TOKEN = "access-sandbox-00000000-0000-0000-0000-000000000000"


def main() -> int:
    env = os.environ
    client = Client(env["FC_API_KEY"], env["FC_BASE_URL"])

    public = client.sandbox.public_token_create(institution_id="ins_sandbox_first_bank", products=["transactions"])
    exchanged = client.link.token_exchange(public_token=public.public_token)
    access_token = exchanged.access_token

    deadline = time.monotonic() + 60
    while client.items.get(access_token=access_token).item.transactions_update_status != "historical_update_complete":
        if time.monotonic() > deadline:
            raise SystemExit("the item's history did not finish loading within 60 s")
        time.sleep(0.2)

    accounts = client.accounts.get(access_token=access_token).accounts

    added, pages, cursor = 0, 0, None
    while True:
        page = client.transactions.sync(access_token=access_token, cursor=cursor, count=500)
        pages += 1
        added += len(page.added)
        cursor = page.next_cursor
        if not page.has_more:
            break

    try:
        client.items.get(access_token=UNKNOWN_ACCESS_TOKEN)
        raise SystemExit("items.get with an unknown access token did not fail")
    except FincoreError as error:
        failure = {
            "status": error.status,
            "type": error.type,
            "code": error.code,
            "request_id_present": bool(error.request_id),
            "documentation_url": error.documentation_url,
            "display_message": error.display_message,
        }

    with open(env["FC_WEBHOOK_BODY_FILE"], "rb") as handle:
        body = handle.read()
    event = verify_webhook(body, env["FC_WEBHOOK_SIGNATURE"], env["FC_WEBHOOK_TIMESTAMP"], env["FC_WEBHOOK_SECRET"])
    if event.type != env.get("FC_WEBHOOK_TYPE", event.type):
        raise SystemExit(f"verified event type {event.type} differs from the captured {env['FC_WEBHOOK_TYPE']}")

    summary = {
        "language": "python",
        "accounts": len(accounts),
        "added": added,
        "pages": pages,
        "error": failure,
        "webhook_type": event.type,
    }
    sys.stdout.write("SMOKE " + json.dumps(summary, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
