# frozen_string_literal: true

require 'json'
require 'minitest/autorun'
require 'fincore'

# Every shared webhook vector (sdks/webhook-vectors.json) must give the reference's outcome.
class WebhookVectorsTest < Minitest::Test
  VECTORS_PATH = ENV['FC_WEBHOOK_VECTORS'] || File.expand_path('../../webhook-vectors.json', __dir__)
  NON_FINITE = { 'NaN' => Float::NAN, 'Infinity' => Float::INFINITY, '-Infinity' => -Float::INFINITY }.freeze

  def number(value)
    value.is_a?(String) ? NON_FINITE.fetch(value) : value
  end

  def outcome(vector)
    event = Fincore::Webhook.verify(raw_body: vector['body'], signature: vector['signature'], timestamp: vector['timestamp'],
                                    secrets: vector['secrets'], tolerance_seconds: number(vector['tolerance_seconds']),
                                    now: number(vector['now']))
    { 'ok' => true, 'event_type' => event.type }
  rescue Fincore::WebhookVerificationError => e
    { 'ok' => false, 'reason' => e.reason }
  rescue ArgumentError
    { 'error' => 'invalid_argument' }
  end

  def test_every_vector_matches_the_reference
    vectors = JSON.parse(File.read(VECTORS_PATH, encoding: 'UTF-8'))['vectors']
    refute_empty vectors
    failures = vectors.reject { |vector| outcome(vector) == vector['expected'] }
                      .map { |vector| "#{vector['name']}: got #{outcome(vector)}, expected #{vector['expected']}" }
    assert_empty failures
    puts "#{vectors.length} webhook vectors agree"
  end

  def signed(body, secret = 'whsec_a', stamp = '1700000000')
    "v1=#{OpenSSL::HMAC.hexdigest('SHA256', secret, "#{stamp}.#{body}")}"
  end

  def test_a_body_with_comments_is_not_json
    with_comment = '{"id":"evt_1","type":"item.error","created":1,"data":{} /* not JSON */}'
    error = assert_raises(Fincore::WebhookVerificationError) do
      Fincore::Webhook.verify(raw_body: with_comment, signature: signed(with_comment), timestamp: '1700000000',
                              secrets: 'whsec_a', now: 1_700_000_000)
    end
    assert_equal 'invalid_body', error.reason
    slash_in_string = '{"id":"evt/1","type":"item.error","created":1,"data":{"u":"a\\"/b"}}'
    event = Fincore::Webhook.verify(raw_body: slash_in_string, signature: signed(slash_in_string), timestamp: '1700000000',
                                    secrets: 'whsec_a', now: 1_700_000_000)
    assert_equal 'evt/1', event.id
  end

  def test_repeated_headers_arrive_as_arrays
    body = '{"id":"evt_1","type":"item.error","created":1700000000,"data":{}}'
    signature = "v1=#{OpenSSL::HMAC.hexdigest('SHA256', 'whsec_a', "1700000000.#{body}")}"
    event = Fincore::Webhook.verify(raw_body: body, signature: ["v1=#{'0' * 64}", signature], timestamp: %w[1700000000 1700000000],
                                    secrets: 'whsec_a', now: 1_700_000_000)
    assert_equal 'item.error', event.type
    error = assert_raises(Fincore::WebhookVerificationError) do
      Fincore::Webhook.verify(raw_body: body, signature: signature, timestamp: '1700000000', secrets: ['whsec_b'], now: 1_700_000_000)
    end
    assert_equal 'signature_mismatch', error.reason
  end
end
