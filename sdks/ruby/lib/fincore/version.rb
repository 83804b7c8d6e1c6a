# frozen_string_literal: true

module Fincore
  VERSION = '0.1.0'
end
