# frozen_string_literal: true

# Fincore API client library (standard library only: net/http, json, openssl).
module Fincore
end

require_relative 'fincore/version'
require_relative 'fincore/error'
require_relative 'fincore/model'
require_relative 'fincore/models'
require_relative 'fincore/transport'
require_relative 'fincore/groups'
require_relative 'fincore/client'
require_relative 'fincore/webhook'
