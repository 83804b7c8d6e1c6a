defmodule Fincore.Client do
  @moduledoc """
  The Fincore API client: base URL, bearer key, timeout and retry settings. Build one with
  `new/3` and pass it to the method groups (`Fincore.Transactions.sync(client, request)`).

  Retries: a 429 is retried (after its `Retry-After` seconds, else with backoff), except a
  monthly quota (`monthly_api_quota_exceeded`, `monthly_ai_quota_exceeded`) or a `Retry-After`
  over 60 s: those return the error at once, `retry_after` set; a 5xx,
  a timeout or a broken connection only for calls that are safe to repeat (reads and idempotent
  writes), with exponential backoff: 0.5 s, 1 s, 2 s, ... at most 8 s, `max_retries` times.
  """
  alias Fincore.{Error, JSON, Model}

  @default_timeout_ms 30_000
  @max_retry_after_seconds 60
  @monthly_quota_codes ["monthly_api_quota_exceeded", "monthly_ai_quota_exceeded"]
  @default_max_retries 2
  @initial_backoff_ms 500
  @max_backoff_ms 8_000

  defstruct base_url: nil,
            api_key: nil,
            timeout_ms: @default_timeout_ms,
            max_retries: @default_max_retries,
            api_version: nil,
            transport: Fincore.Transport.Httpc,
            sleep: &Process.sleep/1

  @type t :: %__MODULE__{
          base_url: String.t(),
          api_key: String.t(),
          timeout_ms: pos_integer(),
          max_retries: non_neg_integer(),
          api_version: String.t() | nil,
          transport: module() | (String.t(), String.t(), list(), binary() | nil, pos_integer() -> term()),
          sleep: (non_neg_integer() -> term())
        }

  @doc """
  A client. Options: `:timeout_ms` (per attempt, default 30 000), `:max_retries` (default 2),
  `:api_version` (sent as `FC-Version`), `:transport` (see `Fincore.Transport`), `:sleep` (how
  to wait between retries, a 1-arity function of milliseconds; tests pass one that records).
  """
  @spec new(String.t(), String.t(), keyword()) :: t()
  def new(base_url, api_key, options \\ []) do
    struct!(%__MODULE__{base_url: String.trim_trailing(base_url, "/"), api_key: api_key}, options)
  end

  @doc "The backoff before retry number `retry` (0-based), in milliseconds."
  @spec backoff_ms(non_neg_integer()) :: pos_integer()
  def backoff_ms(retry), do: min(@initial_backoff_ms * Integer.pow(2, min(retry, 16)), @max_backoff_ms)

  @doc false
  def call(%__MODULE__{} = client, method, path, request_module, request, response_module, retry_safe) do
    body = if request == nil and method == "GET", do: nil, else: JSON.encode!(Model.encode(request_module, request || %{}))

    case request(client, method, path, body, retry_safe) do
      {:ok, value} -> {:ok, Model.decode(response_module, value)}
      error -> error
    end
  end

  @doc false
  def unwrap!({:ok, value}), do: value
  def unwrap!({:error, error}), do: raise(error)

  @doc """
  Sends one request (body already JSON text, or nil) and returns the decoded JSON answer, with the
  retry rules above.
  """
  @spec request(t(), String.t(), String.t(), binary() | nil, boolean()) :: {:ok, term()} | {:error, Error.t()}
  def request(%__MODULE__{} = client, method, path, body, retry_safe) do
    headers =
      [
        {"Authorization", "Bearer " <> client.api_key},
        {"Accept", "application/json"},
        {"User-Agent", "fincore-elixir/0.1.0"}
      ] ++
        if(body, do: [{"Content-Type", "application/json"}], else: []) ++
        if(client.api_version, do: [{"FC-Version", client.api_version}], else: [])

    attempt(client, method, client.base_url <> path, headers, body, retry_safe, 0)
  end

  defp attempt(client, method, url, headers, body, retry_safe, retry) do
    may_retry = retry < client.max_retries

    case send_request(client.transport, method, url, headers, body, client.timeout_ms) do
      {:ok, %{status: status} = response} when status in 200..299 ->
        text = if String.trim(response.body) == "", do: "{}", else: response.body

        case JSON.decode(text) do
          {:ok, value} ->
            {:ok, value}

          {:error, error} ->
            {:error,
             %{
               Error.local(status, "decode_error", "invalid_json", "the answer is not JSON: #{Exception.message(error)}")
               | request_id: Fincore.Transport.header(response.headers, "x-request-id")
             }}
        end

      {:ok, %{status: 429} = response} when may_retry ->
        error = Error.from_response(response)

        if worth_waiting_for?(error) do
          client.sleep.(if error.retry_after, do: round(error.retry_after * 1000), else: backoff_ms(retry))
          attempt(client, method, url, headers, body, retry_safe, retry + 1)
        else
          {:error, error}
        end

      {:ok, %{status: status}} when status >= 500 and retry_safe and may_retry ->
        client.sleep.(backoff_ms(retry))
        attempt(client, method, url, headers, body, retry_safe, retry + 1)

      {:ok, response} ->
        {:error, Error.from_response(response)}

      {:error, {_kind, _message}} when retry_safe and may_retry ->
        client.sleep.(backoff_ms(retry))
        attempt(client, method, url, headers, body, retry_safe, retry + 1)

      {:error, {kind, message}} ->
        code = %{timeout: "timeout", connect: "connection_failed"} |> Map.get(kind, "connection_error")
        {:error, Error.local(0, "network_error", code, message)}
    end
  end

  # A monthly quota's Retry-After is the time to the monthly reset (days or weeks), and any wait
  # over @max_retry_after_seconds would look like a hang: both go back to the caller at once.
  defp worth_waiting_for?(%Error{code: code, retry_after: retry_after}) do
    code not in @monthly_quota_codes and (retry_after == nil or retry_after <= @max_retry_after_seconds)
  end

  defp send_request(transport, method, url, headers, body, timeout) when is_function(transport, 5), do: transport.(method, url, headers, body, timeout)
  defp send_request(transport, method, url, headers, body, timeout) when is_atom(transport), do: transport.request(method, url, headers, body, timeout)
end
