# frozen_string_literal: true

require 'json'
require 'openssl'

module Fincore
  # The delivery is not authentic or not well formed. #reason is one of: missing_signature,
  # missing_timestamp, malformed_timestamp, malformed_signature, signature_mismatch,
  # timestamp_outside_window, invalid_body.
  class WebhookVerificationError < StandardError
    attr_reader :reason

    def initialize(reason)
      super("webhook verification failed: #{reason}")
      @reason = reason
    end
  end

  # A verified delivery.
  WebhookEvent = Struct.new(:id, :type, :created, :data, keyword_init: true)

  # Webhook signature verification: the same checks, in the same order, as the service's reference.
  #
  # Each delivery carries `FC-Timestamp: <Unix seconds>` and
  # `FC-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + raw body)>[,v1=<hex>...]`
  # (one entry per active signing secret during a rotation).
  module Webhook
    SIGNATURE_HEADER = 'FC-Signature'
    TIMESTAMP_HEADER = 'FC-Timestamp'
    DEFAULT_TOLERANCE_SECONDS = 300

    HEX_SIGNATURE = /\A[0-9a-fA-F]{64}\z/.freeze
    TIMESTAMP = /\A[0-9]{1,15}\z/.freeze
    # The characters JavaScript's String#trim removes: headers are trimmed exactly as the reference
    # implementation does, so every library reaches the same verdict.
    JS_SPACE = "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
    TRIM = /\A#{JS_SPACE}+|#{JS_SPACE}+\z/.freeze

    module_function

    # Verifies one delivery and returns its WebhookEvent; raises WebhookVerificationError (#reason)
    # when it fails, ArgumentError for arguments that are programming errors (no non-empty secret, a
    # tolerance or now that is not a finite number: NaN would otherwise switch the window off).
    #
    # raw_body:  the body exactly as received (never re-serialised JSON)
    # signature, timestamp: the FC-Signature and FC-Timestamp header values (an Array when repeated)
    # secrets:   one secret or several (during a rotation any one of them may match)
    # tolerance_seconds: allowed clock distance, either direction (default 300)
    # now:       the receiver's clock in Unix seconds (default Time.now)
    def verify(raw_body:, signature:, timestamp:, secrets:, tolerance_seconds: DEFAULT_TOLERANCE_SECONDS, now: nil)
      secret_list = Array(secrets).reject { |secret| secret.nil? || secret.empty? }
      raise ArgumentError, 'Fincore::Webhook.verify needs a non-empty secret' if secret_list.empty?
      unless finite_number?(tolerance_seconds) && !tolerance_seconds.negative?
        raise ArgumentError, 'tolerance_seconds must be a finite number of seconds, 0 or more'
      end

      now = Time.now.to_r if now.nil?
      raise ArgumentError, 'now must be a finite number of Unix seconds' unless finite_number?(now)

      body = raw_body.to_s.b
      signature_header = header_text(signature)
      raise WebhookVerificationError, 'missing_signature' if signature_header.nil?

      timestamp_header = header_text(timestamp)
      raise WebhookVerificationError, 'missing_timestamp' if timestamp_header.nil?

      # A repeated FC-Timestamp header is acceptable only when every copy is the same value.
      stamps = timestamp_header.split(',', -1).map { |part| trim(part) }.uniq
      stamp = stamps.first
      raise WebhookVerificationError, 'malformed_timestamp' if stamps.length != 1 || !TIMESTAMP.match?(stamp)

      given = signatures(signature_header)
      raise WebhookVerificationError, 'malformed_signature' if given.nil?

      matched = false
      secret_list.each do |secret|
        expected = OpenSSL::HMAC.digest('SHA256', secret.to_s.b, "#{stamp}.".b + body)
        # Every pair is compared (no early exit): timing says nothing about which entry matched.
        given.each { |candidate| matched = true if secure_compare(candidate, expected) }
      end
      raise WebhookVerificationError, 'signature_mismatch' unless matched
      raise WebhookVerificationError, 'timestamp_outside_window' if (now - Integer(stamp, 10)).abs > tolerance_seconds

      event = parse_event(body)
      raise WebhookVerificationError, 'invalid_body' if event.nil?

      event
    end

    def finite_number?(value)
      value.is_a?(Numeric) && !value.is_a?(Complex) && (!value.is_a?(Float) || value.finite?)
    end

    def trim(text)
      text.gsub(TRIM, '')
    end

    def header_text(value)
      return nil if value.nil?

      parts = Array(value).map { |part| trim(part.to_s) }.reject(&:empty?)
      parts.empty? ? nil : parts.join(',')
    end

    # The v1 signatures in the header (binary strings); nil when it is not a list of scheme=value.
    def signatures(header)
      found = []
      header.split(',', -1).each do |part|
        entry = trim(part)
        eq = entry.index('=')
        return nil if eq.nil? || eq.zero?

        scheme = entry[0...eq]
        value = entry[(eq + 1)..]
        next unless scheme == 'v1' # other schemes are for other verifiers
        return nil unless HEX_SIGNATURE.match?(value)

        found << [value].pack('H*')
      end
      found.empty? ? nil : found
    end

    def secure_compare(left, right)
      return false unless left.bytesize == right.bytesize

      left.bytes.zip(right.bytes).reduce(0) { |diff, (a, b)| diff | (a ^ b) }.zero?
    end

    # Ruby's JSON parser skips /* */ and // comments, which JSON (and the reference) rejects; a `/`
    # outside a string can only start one.
    def comment_outside_strings?(text)
      in_string = false
      escaped = false
      text.each_char do |char|
        if in_string
          if escaped then escaped = false
          elsif char == '\\' then escaped = true
          elsif char == '"' then in_string = false
          end
        elsif char == '"' then in_string = true
        elsif char == '/' then return true
        end
      end
      false
    end

    def parse_event(body)
      text = body.dup.force_encoding(Encoding::UTF_8).scrub("\uFFFD")
      return nil if comment_outside_strings?(text)

      value = JSON.parse(text, max_nesting: false)
      return nil unless value.is_a?(Hash)

      id, type, created, data = value.values_at('id', 'type', 'created', 'data')
      return nil unless id.is_a?(String) && !id.empty? && type.is_a?(String) && !type.empty?
      return nil unless created.is_a?(Numeric) && created.to_f.finite? && data.is_a?(Hash)

      WebhookEvent.new(id: id, type: type, created: created, data: data)
    rescue JSON::ParserError, EncodingError
      nil
    end
  end
end
