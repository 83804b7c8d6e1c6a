defmodule Fincore.Webhook do
  @moduledoc """
  Webhook signature verification. Each delivery carries

      FC-Timestamp: <Unix seconds>
      FC-Signature: v1=<hex HMAC-SHA256(secret, timestamp <> "." <> raw body)>[,v1=<hex>...]

  with one `v1=` entry per active signing secret during a rotation. The checks and their order
  are the service's reference implementation's, so every Fincore library reaches the same outcome
  on every delivery (the shared vectors in sdks/webhook-vectors.json prove it).

      case Fincore.Webhook.verify(raw_body, get_req_header(conn, "fc-signature"),
                                  get_req_header(conn, "fc-timestamp"), [secret]) do
        {:ok, event} -> handle(event)            # event.id (dedupe), event.type, event.data
        {:error, reason} -> send_resp(conn, 400, Atom.to_string(reason))
      end
  """

  @default_tolerance_seconds 300

  defmodule Event do
    @moduledoc "A verified delivery's event. `raw` is the whole body as decoded."
    defstruct [:id, :type, :created, :data, :raw]
    @type t :: %__MODULE__{id: String.t(), type: String.t(), created: number(), data: map(), raw: map()}
  end

  @type reason ::
          :missing_signature
          | :missing_timestamp
          | :malformed_signature
          | :malformed_timestamp
          | :timestamp_outside_window
          | :signature_mismatch
          | :invalid_body

  @type header :: String.t() | [String.t()] | nil

  @doc "The default window in seconds, either direction."
  def default_tolerance_seconds, do: @default_tolerance_seconds

  @doc """
  Checks a delivery's signature and timestamp, then decodes its body.

  `raw_body` is the body exactly as received. `signature` and `timestamp` are the header values
  (a string, the list a repeated header gives, or nil when absent). `secrets` is one secret or a
  list (every secret you hold during a rotation). Options: `:tolerance_seconds` (default 300) and
  `:now` (Unix seconds; the system clock by default).

  Order of checks: headers present, timestamp well formed, signatures well formed, signature
  (any `v1=` entry under any secret, compared in constant time), timestamp window (both
  directions), body. Raises `ArgumentError` for arguments that are a programming error: no
  non-empty secret, a tolerance that is not a number of seconds, 0 or more, or a `now` that is not
  a number.
  """
  @spec verify(binary(), header(), header(), String.t() | [String.t()], keyword()) :: {:ok, Event.t()} | {:error, reason()}
  def verify(raw_body, signature, timestamp, secrets, options \\ []) when is_binary(raw_body) do
    secrets = secrets |> List.wrap() |> Enum.filter(&(is_binary(&1) and &1 != ""))
    if secrets == [], do: raise(ArgumentError, "Fincore.Webhook.verify needs a non-empty secret")
    tolerance = Keyword.get(options, :tolerance_seconds, @default_tolerance_seconds)

    unless is_number(tolerance) and tolerance >= 0 do
      raise ArgumentError, "tolerance_seconds must be a number of seconds, 0 or more, got: #{inspect(tolerance)}"
    end

    now = Keyword.get_lazy(options, :now, fn -> System.os_time(:millisecond) / 1000 end)
    unless is_number(now), do: raise(ArgumentError, "now must be a number of Unix seconds, got: #{inspect(now)}")

    with {:ok, signature_header} <- header_text(signature, :missing_signature),
         {:ok, timestamp_header} <- header_text(timestamp, :missing_timestamp),
         {:ok, stamp} <- parse_timestamp(timestamp_header),
         {:ok, given} <- parse_signatures(signature_header),
         :ok <- match_signature(secrets, stamp, raw_body, given),
         :ok <- within_window(stamp, now, tolerance) do
      parse_event(raw_body)
    end
  end

  @doc "The `v1=<hex>` signature of a body under one secret (for tests and local tooling)."
  @spec sign(String.t(), non_neg_integer(), binary()) :: String.t()
  def sign(secret, timestamp, raw_body), do: "v1=" <> Base.encode16(hmac(secret, Integer.to_string(timestamp), raw_body), case: :lower)

  defp hmac(secret, stamp, raw_body), do: :crypto.mac(:hmac, :sha256, secret, [stamp, ".", raw_body])

  # JavaScript's String.prototype.trim whitespace, so values trim exactly as the reference does.
  @js_space "[\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}]"
  @trim Regex.compile!("\\A#{@js_space}+|#{@js_space}+\\z", "u")
  defp js_trim(text), do: Regex.replace(@trim, text, "")

  defp header_text(value, missing) do
    parts = value |> List.wrap() |> Enum.map(&js_trim/1) |> Enum.reject(&(&1 == ""))
    if parts == [], do: {:error, missing}, else: {:ok, Enum.join(parts, ",")}
  end

  # A repeated FC-Timestamp header is only acceptable when every copy is the same value.
  defp parse_timestamp(header) do
    case header |> String.split(",") |> Enum.map(&js_trim/1) |> Enum.uniq() do
      [stamp] -> if Regex.match?(~r/\A[0-9]{1,15}\z/, stamp), do: {:ok, stamp}, else: {:error, :malformed_timestamp}
      _ -> {:error, :malformed_timestamp}
    end
  end

  # The v1 signatures; malformed when the header is not a list of `scheme=value` or has no v1 entry.
  defp parse_signatures(header) do
    header
    |> String.split(",")
    |> Enum.reduce_while([], fn part, found ->
      case :binary.split(js_trim(part), "=") do
        [scheme, value] when scheme != "" ->
          cond do
            scheme != "v1" -> {:cont, found}
            byte_size(value) == 64 and match?({:ok, _}, Base.decode16(value, case: :mixed)) -> {:cont, [Base.decode16!(value, case: :mixed) | found]}
            true -> {:halt, :malformed}
          end

        _ ->
          {:halt, :malformed}
      end
    end)
    |> case do
      :malformed -> {:error, :malformed_signature}
      [] -> {:error, :malformed_signature}
      found -> {:ok, found}
    end
  end

  defp match_signature(secrets, stamp, raw_body, given) do
    # Every pair is compared (no early exit) so timing says nothing about which entry matched.
    matched =
      Enum.reduce(secrets, false, fn secret, matched ->
        expected = hmac(secret, stamp, raw_body)
        Enum.reduce(given, matched, fn candidate, matched -> constant_time_equal?(candidate, expected) or matched end)
      end)

    if matched, do: :ok, else: {:error, :signature_mismatch}
  end

  defp constant_time_equal?(a, b) when byte_size(a) != byte_size(b), do: false

  defp constant_time_equal?(a, b) do
    :crypto.exor(a, b) |> :binary.bin_to_list() |> Enum.reduce(0, &Bitwise.bor/2) == 0
  end

  defp within_window(stamp, now, tolerance) do
    if abs(now - String.to_integer(stamp)) > tolerance, do: {:error, :timestamp_outside_window}, else: :ok
  end

  defp parse_event(raw_body) do
    with {:ok, %{"id" => id, "type" => type, "created" => created, "data" => %{} = data} = raw}
         when is_binary(id) and id != "" and is_binary(type) and type != "" and is_number(created) <- Fincore.JSON.decode(lossy_utf8(raw_body)) do
      {:ok, %Event{id: id, type: type, created: created, data: data, raw: raw}}
    else
      _ -> {:error, :invalid_body}
    end
  end

  # Bytes that are not UTF-8 read as U+FFFD, as a Node.js receiver decodes them.
  defp lossy_utf8(bytes) do
    case :unicode.characters_to_binary(bytes) do
      text when is_binary(text) -> text
      {_, valid, <<_, rest::binary>>} -> valid <> "\uFFFD" <> lossy_utf8(rest)
      {_, valid, _} -> valid <> "\uFFFD"
    end
  end
end
