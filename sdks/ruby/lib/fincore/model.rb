# frozen_string_literal: true

module Fincore
  # Base of every generated model; each subclass lists its fields in WIRE as
  # [attribute, wire name, type descriptor, required].
  #
  # Decoding is tolerant: unknown keys are kept in #extra_fields (the API may add fields), a value of
  # an unexpected shape is kept as it came, a missing field is nil. Encoding writes wire names, drops
  # optional fields left nil and sends required ones.
  class Model
    # Keys the server sent that this library version does not know.
    attr_reader :extra_fields

    # Builds a model from attributes (a request): unknown names and missing required ones raise
    # ArgumentError, as a method's keyword arguments would.
    def initialize(**attributes)
      known = self.class::WIRE.map(&:first)
      unknown = attributes.keys - known
      raise ArgumentError, "#{self.class.name}: unknown field(s) #{unknown.join(', ')}" unless unknown.empty?

      self.class::WIRE.each do |attribute, _wire, _type, required|
        if required && !attributes.key?(attribute)
          raise ArgumentError, "#{self.class.name}: missing required field #{attribute}"
        end

        instance_variable_set(:"@#{attribute}", attributes[attribute])
      end
      @extra_fields = {}
    end

    # Decodes a JSON object (string keys).
    def self.from_h(hash)
      model = allocate
      wires = self::WIRE.map { |entry| entry[1] }
      self::WIRE.each do |attribute, wire, type, _required|
        model.instance_variable_set(:"@#{attribute}", Model.decode(type, hash[wire]))
      end
      model.instance_variable_set(:@extra_fields, hash.reject { |key, _| wires.include?(key) })
      model
    end

    # The JSON object, with wire names.
    def to_h
      out = (@extra_fields || {}).dup
      self.class::WIRE.each do |attribute, wire, _type, required|
        value = instance_variable_get(:"@#{attribute}")
        next if value.nil? && !required

        out[wire] = Model.encode(value)
      end
      out
    end

    def ==(other)
      other.class == self.class && other.to_h == to_h
    end

    def inspect
      fields = self.class::WIRE.map { |attribute, *| "#{attribute}=#{instance_variable_get(:"@#{attribute}").inspect}" }
      "#<#{self.class.name} #{fields.join(' ')}>"
    end

    def self.decode(type, value)
      return value if value.nil?
      return (value.is_a?(Integer) ? value.to_f : value) if type == :number
      return value if type.is_a?(Symbol)

      kind, inner = type
      case kind
      when :nullable then decode(inner, value)
      when :array then value.is_a?(Array) ? value.map { |item| decode(inner, item) } : value
      when :map then value.is_a?(Hash) ? value.transform_values { |item| decode(inner, item) } : value
      when :model then value.is_a?(Hash) ? Models.const_get(inner).from_h(value) : value
      else value
      end
    end

    def self.encode(value)
      case value
      when Model then value.to_h
      when Array then value.map { |item| encode(item) }
      when Hash then value.to_h { |key, item| [key.to_s, encode(item)] }
      else value
      end
    end
  end
end
