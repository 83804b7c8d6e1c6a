defmodule Fincore.Error do
  @moduledoc """
  The one error type of the library.

  For an error answer from the API: the HTTP `status` and the body's `type`, `code`, `message`
  and `request_id` as sent, plus `retry_after` (seconds) when the answer had a `Retry-After`
  header, `documentation_url` (where the code is explained, `{base_url}/docs/errors#<code>`) and
  `display_message` (a sentence safe to show your end user; nil when the error is the integration's
  to fix). A request that got no answer has `status: 0` and `type: "network_error"` (codes
  `timeout`, `connection_failed`, `connection_error`); a 2xx body that is not JSON has
  `type: "decode_error"`.
  """
  defexception [:status, :type, :code, :message, :request_id, :retry_after, :documentation_url, :display_message]

  @type t :: %__MODULE__{
          status: non_neg_integer(),
          type: String.t(),
          code: String.t(),
          message: String.t(),
          request_id: String.t() | nil,
          retry_after: number() | nil,
          documentation_url: String.t() | nil,
          display_message: String.t() | nil
        }

  @impl true
  def message(%__MODULE__{} = e) do
    "#{e.status} #{e.type} (#{e.code}): #{e.message}" <> if(e.request_id, do: " [request_id #{e.request_id}]", else: "")
  end

  @doc "The error an HTTP answer with a non-2xx status stands for."
  @spec from_response(%{status: integer(), headers: [{String.t(), String.t()}], body: binary()}) :: t()
  def from_response(%{status: status, headers: headers, body: body}) do
    error =
      case Fincore.JSON.decode(body) do
        {:ok, %{"error" => %{} = error}} -> error
        _ -> %{}
      end

    text = fn key -> if is_binary(error[key]), do: error[key] end

    %__MODULE__{
      status: status,
      type: text.("type") || "api_error",
      code: text.("code") || "http_#{status}",
      message: text.("message") || "HTTP #{status} without a Fincore error body",
      request_id: text.("request_id") || Fincore.Transport.header(headers, "x-request-id"),
      retry_after: retry_after(Fincore.Transport.header(headers, "retry-after")),
      documentation_url: text.("documentation_url"),
      display_message: text.("display_message")
    }
  end

  @doc false
  def local(status, type, code, message), do: %__MODULE__{status: status, type: type, code: code, message: message}

  # The API sends delta-seconds; an HTTP date falls back to the client's backoff.
  defp retry_after(nil), do: nil

  defp retry_after(value) do
    case Float.parse(String.trim(value)) do
      {seconds, ""} when seconds >= 0 -> if seconds == trunc(seconds), do: trunc(seconds), else: seconds
      _ -> nil
    end
  end
end
