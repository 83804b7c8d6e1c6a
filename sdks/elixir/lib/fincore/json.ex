defmodule Fincore.JSON do
  @moduledoc """
  A small JSON codec (OTP 25 has no `json` module and the library takes no dependencies).

  `decode/1` is strict RFC 8259: objects become maps with string keys, integers stay integers,
  a repeated key keeps its last value (as JavaScript's `JSON.parse` does) and a lone surrogate
  escape becomes U+FFFD. `encode/1` takes maps (atom or string keys), lists, strings, numbers,
  booleans, `nil` and atoms (written as strings).
  """

  defmodule DecodeError do
    defexception [:message, :offset]
  end

  @max_depth 512

  @doc "Decodes one JSON text: `{:ok, term}` or `{:error, %DecodeError{}}`."
  @spec decode(binary()) :: {:ok, term()} | {:error, Exception.t()}
  def decode(text) when is_binary(text) do
    if String.valid?(text) do
      {value, rest} = value(skip_ws(text), text, 0)

      case skip_ws(rest) do
        "" -> {:ok, value}
        rest -> fail("unexpected text after the JSON value", text, rest)
      end
    else
      {:error, %DecodeError{message: "invalid UTF-8", offset: 0}}
    end
  catch
    {:json_error, error} -> {:error, error}
  end

  @doc "Like `decode/1`, raising on bad input."
  def decode!(text) do
    case decode(text) do
      {:ok, value} -> value
      {:error, error} -> raise error
    end
  end

  defp fail(message, text, rest) do
    throw({:json_error, %DecodeError{message: message, offset: byte_size(text) - byte_size(rest)}})
  end

  defp skip_ws(<<c, rest::binary>>) when c in [?\s, ?\t, ?\n, ?\r], do: skip_ws(rest)
  defp skip_ws(rest), do: rest

  defp value(_, text, depth) when depth > @max_depth, do: fail("nesting too deep", text, "")
  defp value("null" <> rest, _, _), do: {nil, rest}
  defp value("true" <> rest, _, _), do: {true, rest}
  defp value("false" <> rest, _, _), do: {false, rest}
  defp value("\"" <> rest, text, _), do: string(rest, text, [])
  defp value("[" <> rest, text, depth), do: array(skip_ws(rest), text, depth + 1, [])
  defp value("{" <> rest, text, depth), do: object(skip_ws(rest), text, depth + 1, %{})
  defp value(<<c, _::binary>> = rest, text, _) when c == ?- or c in ?0..?9, do: number(rest, text)
  defp value("", text, _), do: fail("unexpected end of input", text, "")
  defp value(rest, text, _), do: fail("unexpected character", text, rest)

  defp array("]" <> rest, _, _, []), do: {[], rest}

  defp array(input, text, depth, acc) do
    {item, rest} = value(skip_ws(input), text, depth)

    case skip_ws(rest) do
      "," <> rest -> array(skip_ws(rest), text, depth, [item | acc])
      "]" <> rest -> {Enum.reverse([item | acc]), rest}
      rest -> fail("expected ',' or ']'", text, rest)
    end
  end

  defp object("}" <> rest, _, _, acc) when acc == %{}, do: {acc, rest}

  defp object("\"" <> rest, text, depth, acc) do
    {key, rest} = string(rest, text, [])

    case skip_ws(rest) do
      ":" <> rest ->
        {item, rest} = value(skip_ws(rest), text, depth)
        acc = Map.put(acc, key, item)

        case skip_ws(rest) do
          "," <> rest -> object(skip_ws(rest), text, depth, acc)
          "}" <> rest -> {acc, rest}
          rest -> fail("expected ',' or '}'", text, rest)
        end

      rest ->
        fail("expected ':'", text, rest)
    end
  end

  defp object(rest, text, _, _), do: fail("expected a string key", text, rest)

  defp string("\"" <> rest, _, acc), do: {IO.iodata_to_binary(Enum.reverse(acc)), rest}
  defp string("\\u" <> rest, text, acc), do: unicode_escape(rest, text, acc)
  defp string("\\\"" <> rest, text, acc), do: string(rest, text, ["\"" | acc])
  defp string("\\\\" <> rest, text, acc), do: string(rest, text, ["\\" | acc])
  defp string("\\/" <> rest, text, acc), do: string(rest, text, ["/" | acc])
  defp string("\\b" <> rest, text, acc), do: string(rest, text, ["\b" | acc])
  defp string("\\f" <> rest, text, acc), do: string(rest, text, ["\f" | acc])
  defp string("\\n" <> rest, text, acc), do: string(rest, text, ["\n" | acc])
  defp string("\\r" <> rest, text, acc), do: string(rest, text, ["\r" | acc])
  defp string("\\t" <> rest, text, acc), do: string(rest, text, ["\t" | acc])
  defp string("\\" <> rest, text, _), do: fail("invalid escape", text, rest)
  defp string(<<c, _::binary>> = rest, text, _) when c < 0x20, do: fail("control character in string", text, rest)
  defp string("", text, _), do: fail("unterminated string", text, "")

  defp string(input, text, acc) do
    # Copy the run up to the next quote, backslash or control character in one piece.
    length = run_length(input, 0)
    <<run::binary-size(length), rest::binary>> = input
    string(rest, text, [run | acc])
  end

  defp run_length(<<c, _::binary>>, n) when c == ?" or c == ?\\ or c < 0x20, do: n
  defp run_length(<<_, rest::binary>>, n), do: run_length(rest, n + 1)
  defp run_length(<<>>, n), do: n

  defp hex4(<<a, b, c, d, rest::binary>>, text) do
    case Integer.parse(<<a, b, c, d>>, 16) do
      {code, ""} when a not in [?+, ?-] -> {code, rest}
      _ -> fail("invalid \\u escape", text, rest)
    end
  end

  defp hex4(rest, text), do: fail("truncated \\u escape", text, rest)

  defp unicode_escape(input, text, acc) do
    {unit, rest} = hex4(input, text)

    cond do
      unit in 0xD800..0xDBFF ->
        case rest do
          "\\u" <> after_escape ->
            case hex4(after_escape, text) do
              {low, rest2} when low in 0xDC00..0xDFFF ->
                string(rest2, text, [<<0x10000 + (unit - 0xD800) * 0x400 + (low - 0xDC00)::utf8>> | acc])

              _ ->
                string(rest, text, ["\uFFFD" | acc])
            end

          _ ->
            string(rest, text, ["\uFFFD" | acc])
        end

      unit in 0xDC00..0xDFFF ->
        # A lone surrogate is legal JSON but not UTF-8.
        string(rest, text, ["\uFFFD" | acc])

      true ->
        string(rest, text, [<<unit::utf8>> | acc])
    end
  end

  defp number(input, text) do
    case Regex.run(~r/\A-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/, input) do
      [literal | groups] ->
        rest = binary_part(input, byte_size(literal), byte_size(input) - byte_size(literal))

        if groups == [] do
          {String.to_integer(literal), rest}
        else
          case Float.parse(literal) do
            {float, ""} -> {float, rest}
            # Out of the double range: JSON.parse would give Infinity, which has no Elixir value.
            _ -> fail("number out of range", text, input)
          end
        end

      nil ->
        fail("invalid number", text, input)
    end
  rescue
    ArgumentError -> fail("number out of range", text, input)
  end

  @doc "Encodes a term as compact JSON text."
  @spec encode!(term()) :: binary()
  def encode!(term), do: IO.iodata_to_binary(encode_value(term))

  defp encode_value(nil), do: "null"
  defp encode_value(true), do: "true"
  defp encode_value(false), do: "false"
  defp encode_value(value) when is_atom(value), do: encode_string(Atom.to_string(value))
  defp encode_value(value) when is_binary(value), do: encode_string(value)
  defp encode_value(value) when is_integer(value), do: Integer.to_string(value)

  defp encode_value(value) when is_float(value) do
    if value == Float.round(value) and abs(value) < 1.0e15, do: Integer.to_string(trunc(value)), else: Float.to_string(value)
  end

  defp encode_value(value) when is_list(value), do: ["[", Enum.map_intersperse(value, ",", &encode_value/1), "]"]

  defp encode_value(%_{} = struct), do: raise(ArgumentError, "cannot encode the struct #{inspect(struct.__struct__)} as JSON")

  defp encode_value(value) when is_map(value) do
    pairs = Enum.map(value, fn {k, v} -> [encode_string(key_text(k)), ":", encode_value(v)] end)
    ["{", Enum.intersperse(pairs, ","), "}"]
  end

  defp key_text(key) when is_binary(key), do: key
  defp key_text(key) when is_atom(key), do: Atom.to_string(key)

  defp encode_string(s) do
    ["\"", escape(s, ""), "\""]
  end

  defp escape(<<>>, acc), do: acc
  defp escape(<<?", rest::binary>>, acc), do: escape(rest, acc <> "\\\"")
  defp escape(<<?\\, rest::binary>>, acc), do: escape(rest, acc <> "\\\\")
  defp escape(<<?\n, rest::binary>>, acc), do: escape(rest, acc <> "\\n")
  defp escape(<<?\r, rest::binary>>, acc), do: escape(rest, acc <> "\\r")
  defp escape(<<?\t, rest::binary>>, acc), do: escape(rest, acc <> "\\t")

  defp escape(<<c, rest::binary>>, acc) when c < 0x20 do
    escape(rest, acc <> "\\u" <> String.pad_leading(Integer.to_string(c, 16), 4, "0"))
  end

  defp escape(<<c, rest::binary>>, acc), do: escape(rest, <<acc::binary, c>>)
end
