# frozen_string_literal: true

require 'minitest/autorun'
require 'fincore'
require_relative 'stub_server'

# Retries, backoff and error mapping against a tiny local HTTP stub (no real sleeping).
class TransportTest < Minitest::Test
  KEY = 'fc_sk_test_abcdefghijklmnop'
  ITEM = {
    'item' => { 'item_id' => 'it_1', 'institution_id' => 'ins_1', 'institution_name' => 'Bank', 'status' => 'healthy',
                'connector' => 'sandbox', 'error' => nil, 'consented_products' => ['transactions'],
                'last_successful_sync' => nil, 'created_at' => '2026-01-01T00:00:00Z',
                'transactions_update_status' => 'not_ready', 'future_field' => 1 }
  }.freeze

  def setup
    @stub = StubServer.new
    @delays = []
    @client = client
  end

  def teardown
    @stub.close
  end

  def client(**options)
    Fincore::Client.new(api_key: KEY, base_url: @stub.url, sleeper: ->(seconds) { @delays << seconds }, **options)
  end

  def error_body(type, code, request_id = 'req_1')
    { 'error' => { 'type' => type, 'code' => code, 'message' => 'm', 'request_id' => request_id } }
  end

  def test_sends_bearer_key_and_json_and_decodes_the_model
    @stub.answers << [200, {}, ITEM]
    answer = @client.items.get(access_token: 'fc_at_x')
    assert_instance_of Fincore::Models::ItemsGetResponse, answer
    assert_equal 'Bank', answer.item.institution_name
    assert_equal({ 'future_field' => 1 }, answer.item.extra_fields)
    path, headers, body = @stub.requests.first
    assert_equal '/v1/items/get', path
    assert_equal "Bearer #{KEY}", headers['authorization']
    assert_equal 'application/json', headers['content-type']
    assert_equal({ 'access_token' => 'fc_at_x' }, body)
  end

  def test_optional_request_fields_are_omitted_and_required_ones_enforced
    @stub.answers << [200, {}, { 'added' => [], 'modified' => [], 'removed' => [], 'next_cursor' => 'c', 'has_more' => false,
                                 'transactions_update_status' => 'not_ready' }]
    @client.transactions.sync(access_token: 'fc_at_x', count: 10)
    assert_equal({ 'access_token' => 'fc_at_x', 'count' => 10 }, @stub.requests.first[2])
    assert_raises(ArgumentError) { @client.transactions.sync(count: 10) }
  end

  def test_429_honours_retry_after_even_on_an_unsafe_call
    @stub.answers << [429, { 'Retry-After' => '3' }, error_body('rate_limit_error', 'rate_limit_exceeded')]
    @stub.answers << [200, {}, { 'access_token' => 'fc_at_1', 'item_id' => 'it_1', 'rotated' => false }]
    assert_equal 'fc_at_1', @client.link.token_exchange(public_token: 'public-sandbox-1').access_token
    assert_equal [3.0], @delays
    assert_equal 2, @stub.requests.length
  end

  def test_429_without_retry_after_backs_off_exponentially_then_gives_up
    3.times { @stub.answers << [429, {}, error_body('rate_limit_error', 'rate_limit_exceeded')] }
    error = assert_raises(Fincore::Error) { @client.items.get(access_token: 'fc_at_x') }
    assert_equal 429, error.status
    assert_equal [0.5, 1.0], @delays
    assert_equal 3, @stub.requests.length
  end

  def test_monthly_quota_429_is_never_retried_and_keeps_retry_after
    %w[monthly_api_quota_exceeded monthly_ai_quota_exceeded].each do |code|
      @stub.requests.clear
      @stub.answers.replace([[429, { 'Retry-After' => '30' }, error_body('rate_limit_error', code)], [200, {}, ITEM]])
      error = assert_raises(Fincore::Error) { @client.items.get(access_token: 'fc_at_x') }
      assert_equal [429, code, 30.0], [error.status, error.code, error.retry_after]
      assert_equal [], @delays
      assert_equal 1, @stub.requests.length
    end
  end

  def test_retry_after_over_60_seconds_is_raised_at_once_with_its_value
    @stub.answers << [429, { 'Retry-After' => '61' }, error_body('rate_limit_error', 'rate_limit_exceeded')]
    @stub.answers << [200, {}, ITEM]
    error = assert_raises(Fincore::Error) { @client.items.get(access_token: 'fc_at_x') }
    assert_equal [429, 61.0], [error.status, error.retry_after]
    assert_equal [], @delays
    assert_equal 1, @stub.requests.length
  end

  def test_retry_after_of_exactly_60_seconds_is_waited_out
    @stub.answers << [503, { 'Retry-After' => '60' }, error_body('api_error', 'storage_unavailable')]
    @stub.answers << [200, {}, ITEM]
    assert_equal 'it_1', @client.items.get(access_token: 'fc_at_x').item.item_id
    assert_equal [60.0], @delays
  end

  def test_5xx_is_retried_on_a_safe_call
    @stub.answers << [500, {}, error_body('api_error', 'internal_error')]
    @stub.answers << [503, { 'Retry-After' => '2' }, error_body('api_error', 'storage_unavailable')]
    @stub.answers << [200, {}, ITEM]
    assert_equal 'it_1', @client.items.get(access_token: 'fc_at_x').item.item_id
    assert_equal [0.5, 2.0], @delays
  end

  def test_5xx_is_not_retried_on_an_unsafe_call
    @stub.answers << [500, {}, error_body('api_error', 'internal_error', 'req_9')]
    error = assert_raises(Fincore::Error) { @client.link.token_exchange(public_token: 'public-sandbox-1') }
    assert_equal [500, 'internal_error', 'req_9'], [error.status, error.code, error.request_id]
    assert_equal 1, @stub.requests.length
    assert_empty @delays
  end

  def test_max_retries_is_configurable
    @stub.answers << [503, {}, error_body('api_error', 'storage_unavailable')]
    assert_raises(Fincore::Error) { client(max_retries: 0).items.get(access_token: 'fc_at_x') }
    assert_equal 1, @stub.requests.length
  end

  def test_error_mapping_carries_every_field
    @stub.answers << [400, { 'X-Request-Id' => 'req_header' }, error_body('invalid_request', 'invalid_field', 'req_body')]
    error = assert_raises(Fincore::Error) { @client.items.get(access_token: 'bad') }
    assert_equal [400, 'invalid_request', 'invalid_field', 'm', 'req_body'],
                 [error.status, error.type, error.code, error.message, error.request_id]
    assert_nil error.retry_after
  end

  def test_error_without_json_body_still_has_status_and_request_id
    @stub.answers << [502, { 'X-Request-Id' => 'req_h' }, 'bad gateway']
    error = assert_raises(Fincore::Error) { client(max_retries: 0).items.get(access_token: 'fc_at_x') }
    assert_equal [502, 'api_error', 'req_h'], [error.status, error.type, error.request_id]
  end

  def test_network_error_is_retried_only_when_safe
    @stub.close
    error = assert_raises(Fincore::Error) { @client.items.get(access_token: 'fc_at_x') }
    assert_equal [0, 'connection_error'], [error.status, error.type]
    assert_equal [0.5, 1.0], @delays
    @delays.clear
    assert_raises(Fincore::Error) { @client.link.token_exchange(public_token: 'p') }
    assert_empty @delays
    @stub = StubServer.new
  end
end
