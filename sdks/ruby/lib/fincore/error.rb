# frozen_string_literal: true

module Fincore
  # The one error every API call raises: an error answer, or a request that got no answer.
  #
  # status:      HTTP status (0 when no answer arrived: network error or timeout)
  # type, code:  from the API's error table (invalid_request / invalid_field, ...); without an answer,
  #              type connection_error and code timeout or network_error
  # message:     the human-readable explanation
  # request_id:  the server's request id (quote it to support); nil without an answer
  # retry_after: seconds from the Retry-After header, when sent
  # documentation_url: where the code is explained ({base_url}/docs/errors#<code>); nil without an error body
  # display_message:   a sentence safe to show your end user; nil when the error is the integration's to fix
  class Error < StandardError
    attr_reader :status, :type, :code, :request_id, :retry_after, :body, :documentation_url, :display_message

    def initialize(status:, type:, code:, message:, request_id: nil, retry_after: nil, body: nil, documentation_url: nil,
                   display_message: nil)
      super(message)
      @status = status
      @type = type
      @code = code
      @request_id = request_id
      @retry_after = retry_after
      @body = body
      @documentation_url = documentation_url
      @display_message = display_message
    end

    def inspect
      "#<#{self.class.name} #{status} #{type}/#{code}: #{message}#{request_id ? " (request #{request_id})" : ''}>"
    end
  end
end
