# frozen_string_literal: true

# Smoke test against a running Fincore service (the journey of bin/sdks/language.ts).
# Environment: FC_BASE_URL, FC_API_KEY and a captured webhook delivery (FC_WEBHOOK_SECRET,
# FC_WEBHOOK_BODY_FILE, FC_WEBHOOK_SIGNATURE, FC_WEBHOOK_TIMESTAMP, FC_WEBHOOK_TYPE).
# Prints one line `SMOKE {json}` and exits 0, or fails loudly.
require 'json'
require 'fincore'

UNKNOWN_ACCESS_TOKEN = 'access-sandbox-00000000-0000-0000-0000-000000000000'

client = Fincore::Client.new(api_key: ENV.fetch('FC_API_KEY'), base_url: ENV.fetch('FC_BASE_URL'))

public_token = client.sandbox.public_token_create(institution_id: 'ins_sandbox_first_bank', products: ['transactions']).public_token
access_token = client.link.token_exchange(public_token: public_token).access_token

deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 60
until client.items.get(access_token: access_token).item.transactions_update_status == 'historical_update_complete'
  abort "the item's history did not finish loading within 60 s" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
  sleep 0.2
end

accounts = client.accounts.get(access_token: access_token).accounts

added = 0
pages = 0
cursor = nil
loop do
  page = client.transactions.sync(access_token: access_token, cursor: cursor, count: 500)
  pages += 1
  added += page.added.length
  cursor = page.next_cursor
  break unless page.has_more
end

failure = begin
  client.items.get(access_token: UNKNOWN_ACCESS_TOKEN)
  abort 'items.get with an unknown access token did not fail'
rescue Fincore::Error => e
  { status: e.status, type: e.type, code: e.code, request_id_present: !e.request_id.to_s.empty?,
    documentation_url: e.documentation_url, display_message: e.display_message }
end

event = Fincore::Webhook.verify(raw_body: File.binread(ENV.fetch('FC_WEBHOOK_BODY_FILE')),
                                signature: ENV.fetch('FC_WEBHOOK_SIGNATURE'), timestamp: ENV.fetch('FC_WEBHOOK_TIMESTAMP'),
                                secrets: ENV.fetch('FC_WEBHOOK_SECRET'))
expected_type = ENV.fetch('FC_WEBHOOK_TYPE', event.type)
abort "verified event type #{event.type} differs from the captured #{expected_type}" unless event.type == expected_type

summary = { language: 'ruby', accounts: accounts.length, added: added, pages: pages, error: failure, webhook_type: event.type }
puts "SMOKE #{JSON.generate(summary)}"
