defmodule Fincore.Model do
  @moduledoc """
  Converts between the generated model structs (snake_case atom fields) and the wire's JSON maps,
  using each model's field table (`__fields__/0`: atom, wire name, type, required).

  Encoding accepts the struct, a map (atom or wire-name keys) or a keyword list; an optional field
  that is `nil` is left out, so optional request fields stay optional. Decoding is tolerant: keys
  a model does not know are kept in its `extra` field (open models) or dropped, and a value of an
  unexpected shape is kept as it came.
  """

  @type type_term ::
          :string | :integer | :number | :boolean | :any | {:array, type_term()} | {:map, type_term()} | {:model, module()} | {:nullable, type_term()}

  @doc "The JSON map of a request model."
  @spec encode(module() | nil, term()) :: term()
  def encode(nil, input), do: plain(input)
  def encode(module, input), do: encode_value({:model, module}, input)

  @doc "The struct of a response model."
  @spec decode(module() | nil, term()) :: term()
  def decode(nil, value), do: value
  def decode(module, value), do: decode_value({:model, module}, value)

  defp encode_value(_, nil), do: nil
  defp encode_value({:nullable, type}, value), do: encode_value(type, value)
  defp encode_value({:array, type}, list) when is_list(list), do: Enum.map(list, &encode_value(type, &1))

  defp encode_value({:map, type}, map) when is_map(map) do
    Map.new(map, fn {k, v} -> {to_string(k), encode_value(type, v)} end)
  end

  defp encode_value({:model, module}, input) when is_map(input) or is_list(input) do
    input = if is_list(input), do: Map.new(input), else: input
    {extra, input} = split_extra(module, input)
    fields = module.__fields__()
    known = Enum.flat_map(fields, fn {field, wire, _, _} -> [field, wire] end)

    encoded =
      Enum.reduce(fields, %{}, fn {field, wire, type, required}, acc ->
        value = Map.get(input, field, Map.get(input, wire))

        cond do
          value != nil -> Map.put(acc, wire, encode_value(type, value))
          required -> Map.put(acc, wire, nil)
          true -> acc
        end
      end)

    # Keys the model does not list go out as given: the API answers `unknown_field` for them.
    unknown = for {k, v} <- input, k not in known, into: %{}, do: {to_string(k), plain(v)}
    extra |> Map.merge(unknown) |> Map.merge(encoded)
  end

  defp encode_value(_, value), do: plain(value)

  defp split_extra(module, %_{} = struct) do
    map = Map.from_struct(struct)

    case module.__open__() do
      false -> {%{}, map}
      extra_key -> {Map.get(map, extra_key) || %{}, Map.delete(map, extra_key)}
    end
  end

  defp split_extra(_, map), do: {%{}, map}

  defp plain(%_{} = struct), do: struct |> Map.from_struct() |> plain()
  defp plain(map) when is_map(map), do: Map.new(map, fn {k, v} -> {to_string(k), plain(v)} end)
  defp plain(list) when is_list(list), do: Enum.map(list, &plain/1)
  defp plain(value), do: value

  defp decode_value(_, nil), do: nil
  defp decode_value({:nullable, type}, value), do: decode_value(type, value)
  defp decode_value({:array, type}, list) when is_list(list), do: Enum.map(list, &decode_value(type, &1))
  defp decode_value({:map, type}, map) when is_map(map), do: Map.new(map, fn {k, v} -> {k, decode_value(type, v)} end)

  defp decode_value({:model, module}, map) when is_map(map) do
    fields = module.__fields__()
    values = for {field, wire, type, _} <- fields, into: %{}, do: {field, decode_value(type, Map.get(map, wire))}

    values =
      case module.__open__() do
        false ->
          values

        extra_key ->
          wires = Enum.map(fields, fn {_, wire, _, _} -> wire end)
          Map.put(values, extra_key, Map.drop(map, wires))
      end

    struct(module, values)
  end

  defp decode_value(_, value), do: value
end
