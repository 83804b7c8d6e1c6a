# frozen_string_literal: true

require 'json'
require 'net/http'
require 'openssl'
require 'uri'

module Fincore
  # HTTP transport: bearer auth, JSON, timeouts and retries.
  class Transport
    DEFAULT_BASE_URL = 'https://api.fincore.dev'
    DEFAULT_TIMEOUT = 30
    DEFAULT_MAX_RETRIES = 2
    # The longest Retry-After (seconds) the client waits out; a longer wait is the caller's decision.
    MAX_RETRY_AFTER_SECONDS = 60
    # 429 codes a short wait cannot clear: the quota resets on the first of next month, and the
    # Retry-After of these answers is the time until then.
    MONTHLY_QUOTA_CODES = %w[monthly_api_quota_exceeded monthly_ai_quota_exceeded].freeze

    NETWORK_ERRORS = [
      SocketError, IOError, EOFError, SystemCallError, OpenSSL::SSL::SSLError, Net::HTTPBadResponse
    ].freeze
    TIMEOUT_ERRORS = [Net::OpenTimeout, Net::ReadTimeout, Net::WriteTimeout].freeze

    attr_reader :base_url, :timeout, :max_retries

    def initialize(api_key:, base_url: DEFAULT_BASE_URL, timeout: DEFAULT_TIMEOUT, max_retries: DEFAULT_MAX_RETRIES,
                   backoff_base: 0.5, backoff_max: 8.0, sleeper: ->(seconds) { sleep(seconds) }, api_version: nil)
      raise ArgumentError, 'api_key is required' if api_key.nil? || api_key.empty?
      raise ArgumentError, 'max_retries must be 0 or more' if max_retries.negative?

      @api_key = api_key
      @base_url = base_url.sub(%r{/+\z}, '')
      @timeout = timeout
      @max_retries = max_retries
      @backoff_base = backoff_base
      @backoff_max = backoff_max
      @sleeper = sleeper
      @api_version = api_version
    end

    # Exponential: base, 2*base, 4*base, ... capped at backoff_max.
    def backoff(attempt)
      [@backoff_max, @backoff_base * (2**attempt)].min
    end

    def call(method, path, body, response_model, retry_safe:)
      data = request(method, path, body, retry_safe: retry_safe)
      response_model.from_h(data.is_a?(Hash) ? data : {})
    end

    def request(method, path, body, retry_safe:)
      attempt = 0
      begin
        send_once(method, path, body)
      rescue Error => e
        # 429: the request was refused and did nothing, so it is safe to repeat (unless it is a
        # used-up monthly quota). 5xx and no answer: the outcome is unknown, so only a retry-safe
        # call repeats. A Retry-After over the cap is raised with its value.
        retryable = (e.status == 429 && !MONTHLY_QUOTA_CODES.include?(e.code)) ||
                    (retry_safe && (e.status >= 500 || e.status.zero?))
        wait_too_long = !e.retry_after.nil? && e.retry_after > MAX_RETRY_AFTER_SECONDS
        raise if !retryable || wait_too_long || attempt >= @max_retries

        @sleeper.call(e.retry_after || backoff(attempt))
        attempt += 1
        retry
      end
    end

    def self.retry_after_seconds(value)
      return nil if value.nil?

      seconds = Float(value.strip, exception: false)
      seconds if seconds&.finite? && !seconds.negative?
    end

    private

    def send_once(method, path, body)
      uri = URI.parse(@base_url + path)
      request = method == 'GET' ? Net::HTTP::Get.new(uri) : Net::HTTP::Post.new(uri)
      request['Authorization'] = "Bearer #{@api_key}"
      request['Accept'] = 'application/json'
      request['User-Agent'] = "fincore-ruby/#{VERSION}"
      request['FC-Version'] = @api_version if @api_version
      unless method == 'GET'
        request['Content-Type'] = 'application/json'
        request.body = JSON.generate(body || {})
      end
      response = begin
        Net::HTTP.start(uri.host, uri.port, use_ssl: uri.scheme == 'https', open_timeout: @timeout,
                                            read_timeout: @timeout, write_timeout: @timeout) { |http| http.request(request) }
      rescue *TIMEOUT_ERRORS => e
        raise Error.new(status: 0, type: 'connection_error', code: 'timeout', message: "no answer within #{@timeout} s: #{e.message}")
      rescue *NETWORK_ERRORS => e
        raise Error.new(status: 0, type: 'connection_error', code: 'network_error', message: "#{method} #{path} failed: #{e.message}")
      end
      status = response.code.to_i
      raise error_from(status, response) unless status.between?(200, 299)

      parse_json(response.body) || {}
    end

    def parse_json(text)
      return nil if text.nil? || text.empty?

      JSON.parse(text)
    rescue JSON::ParserError
      nil
    end

    def error_from(status, response)
      body = parse_json(response.body)
      error = body.is_a?(Hash) ? body['error'] : nil
      request_id = response['X-Request-Id']
      retry_after = Transport.retry_after_seconds(response['Retry-After'])
      if error.is_a?(Hash)
        Error.new(status: status, type: (error['type'] || 'api_error').to_s, code: (error['code'] || 'unknown').to_s,
                  message: error['message'].to_s, request_id: error['request_id'] || request_id,
                  retry_after: retry_after, body: body, documentation_url: error['documentation_url'],
                  display_message: error['display_message'])
      else
        Error.new(status: status, type: 'api_error', code: "http_#{status}", message: "HTTP #{status} without an error body",
                  request_id: request_id, retry_after: retry_after)
      end
    end
  end
end
