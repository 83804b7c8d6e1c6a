defmodule Fincore.Transport do
  @moduledoc """
  How the client sends one HTTP request. The default, `Fincore.Transport.Httpc`, uses OTP's
  `:httpc` (http and https). Plug in another (a test double, Finch, Mint, ...) with the client's
  `:transport` option: a module implementing this behaviour, or a 5-arity function of the same
  arguments.
  """

  @type response :: %{status: non_neg_integer(), headers: [{String.t(), String.t()}], body: binary()}
  @type failure :: {:timeout | :connect | :io, String.t()}

  @callback request(method :: String.t(), url :: String.t(), headers :: [{String.t(), String.t()}], body :: binary() | nil, timeout_ms :: pos_integer()) ::
              {:ok, response()} | {:error, failure()}

  @doc "A header's value, the name compared case-insensitively."
  @spec header([{String.t(), String.t()}], String.t()) :: String.t() | nil
  def header(headers, name) do
    name = String.downcase(name)
    Enum.find_value(headers, fn {k, v} -> if String.downcase(k) == name, do: v end)
  end
end

defmodule Fincore.Transport.Httpc do
  @moduledoc "The default transport: OTP's `:httpc` (inets; ssl for https)."
  @behaviour Fincore.Transport

  @impl true
  def request(method, url, headers, body, timeout_ms) do
    {:ok, _} = Application.ensure_all_started(:inets)
    if String.starts_with?(url, "https:"), do: {:ok, _} = Application.ensure_all_started(:ssl)
    {content_type, headers} = Enum.split_with(headers, fn {k, _} -> String.downcase(k) == "content-type" end)
    charlist_headers = Enum.map(headers, fn {k, v} -> {String.to_charlist(k), String.to_charlist(v)} end)
    url_text = url
    url = String.to_charlist(url)

    request =
      case body do
        nil ->
          {url, charlist_headers}

        body ->
          type =
            case content_type do
              [{_, value} | _] -> String.to_charlist(value)
              [] -> ~c"application/json"
            end

          {url, charlist_headers, type, body}
      end

    http_options = [timeout: timeout_ms, connect_timeout: timeout_ms, autoredirect: false] ++ tls_options(url_text)
    method_atom = method |> String.downcase() |> String.to_existing_atom()

    case :httpc.request(method_atom, request, http_options, body_format: :binary) do
      {:ok, {{_version, status, _reason}, response_headers, response_body}} ->
        {:ok,
         %{
           status: status,
           headers: Enum.map(response_headers, fn {k, v} -> {List.to_string(k), List.to_string(v)} end),
           body: response_body
         }}

      {:error, :timeout} ->
        {:error, {:timeout, "the request timed out after #{timeout_ms} ms"}}

      {:error, {:failed_connect, _} = reason} ->
        {:error, {:connect, inspect(reason)}}

      {:error, reason} ->
        {:error, {:io, inspect(reason)}}
    end
  end

  # :httpc does not check certificates unless told to: verify the peer against the OS trust store.
  defp tls_options("https:" <> _) do
    [
      ssl: [
        verify: :verify_peer,
        cacerts: :public_key.cacerts_get(),
        depth: 4,
        customize_hostname_check: [match_fun: :public_key.pkix_verify_hostname_match_fun(:https)]
      ]
    ]
  end

  defp tls_options(_), do: []
end
