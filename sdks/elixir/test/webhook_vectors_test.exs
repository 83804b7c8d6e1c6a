defmodule Fincore.WebhookVectorsTest do
  # Every vector of the shared file sdks/webhook-vectors.json: this library must reach the same
  # outcome as the reference implementation and every other Fincore library.
  use ExUnit.Case, async: true

  defp vectors_path do
    case System.get_env("FC_WEBHOOK_VECTORS") do
      path when is_binary(path) and path != "" -> path
      _ -> Path.expand("../../webhook-vectors.json", __DIR__)
    end
  end

  # Elixir has no NaN or infinities: the non-finite inputs arrive as atoms, which the helper must
  # refuse like any other value that is not a number.
  defp number(nil, default), do: default
  defp number("NaN", _), do: :nan
  defp number("Infinity", _), do: :infinity
  defp number("-Infinity", _), do: :neg_infinity
  defp number(n, _) when is_number(n), do: n

  defp outcome(vector, default_tolerance) do
    options = [tolerance_seconds: number(vector["tolerance_seconds"], default_tolerance), now: number(vector["now"], :missing)]

    try do
      case Fincore.Webhook.verify(vector["body"], vector["signature"], vector["timestamp"], vector["secrets"], options) do
        {:ok, event} -> %{"ok" => true, "event_type" => event.type}
        {:error, reason} -> %{"ok" => false, "reason" => Atom.to_string(reason)}
      end
    rescue
      ArgumentError -> %{"error" => "invalid_argument"}
    end
  end

  test "every shared vector has the expected outcome" do
    file = vectors_path() |> File.read!() |> Fincore.JSON.decode!()
    vectors = file["vectors"]
    assert length(vectors) >= 10
    default_tolerance = file["tolerance_seconds"] || 300

    failures =
      for vector <- vectors, (got = outcome(vector, default_tolerance)) != vector["expected"] do
        "#{vector["name"]}: expected #{inspect(vector["expected"])}, got #{inspect(got)}"
      end

    assert failures == [], "#{length(failures)} of #{length(vectors)} vectors disagree:\n" <> Enum.join(failures, "\n")
  end

  test "a delivery signed with sign/3 verifies with the system clock, repeated headers as lists" do
    now = System.os_time(:second)
    body = ~s({"id":"evt_1","type":"item.error","created":1,"data":{}})
    signature = [Fincore.Webhook.sign("whsec_old", now, body), Fincore.Webhook.sign("whsec_new", now, body)]
    assert {:ok, event} = Fincore.Webhook.verify(body, signature, [Integer.to_string(now)], ["whsec_new"])
    assert {event.id, event.type, event.data} == {"evt_1", "item.error", %{}}
    assert {:error, :signature_mismatch} = Fincore.Webhook.verify(body, signature, "#{now}", "whsec_other")
  end
end
