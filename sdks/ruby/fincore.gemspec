# frozen_string_literal: true

require_relative 'lib/fincore/version'

Gem::Specification.new do |spec|
  spec.name = 'fincore'
  spec.version = Fincore::VERSION
  spec.summary = 'Client library for the Fincore financial data API'
  spec.description = 'Typed models, the nine method groups, retries and webhook verification. Standard library only.'
  spec.authors = ['Fincore']
  spec.license = 'MIT'
  spec.homepage = 'https://fincore.dev'
  spec.required_ruby_version = '>= 3.0'
  spec.files = Dir['lib/**/*.rb'] + ['README.md']
  spec.require_paths = ['lib']
  spec.metadata['rubygems_mfa_required'] = 'true'
end
