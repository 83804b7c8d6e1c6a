# frozen_string_literal: true

module Fincore
  # Fincore API client.
  #
  #   client = Fincore::Client.new(api_key: 'fc_sk_test_...', base_url: 'http://localhost:4010')
  #   client.accounts.get(access_token: 'fc_at_...')
  #
  # timeout: seconds per attempt (default 30). max_retries: extra attempts after a 429, or after a 5xx
  # or network error on a retry-safe call (default 2); a monthly-quota 429 or a Retry-After over 60 s
  # is raised at once. sleeper: how to wait between attempts (tests
  # pass a recorder). api_version: sent as FC-Version when given.
  class Client
    attr_reader :transport, *Groups::ALL.keys

    def initialize(api_key:, base_url: Transport::DEFAULT_BASE_URL, **options)
      @transport = Transport.new(api_key: api_key, base_url: base_url, **options)
      Groups::ALL.each { |name, group| instance_variable_set(:"@#{name}", group.new(@transport)) }
    end
  end
end
