defmodule Fincore.ClientTest do
  # The core's behaviour through an injected transport (retries, backoff, error mapping, request
  # shape) and the real :httpc transport against a tiny local HTTP stub.
  use ExUnit.Case, async: true
  alias Fincore.{Client, Error}

  @sync_page ~s({"added":[],"modified":[],"removed":[],"next_cursor":"c1","has_more":false,"transactions_update_status":"historical_update_complete","new_key_from_a_later_api":1})
  @exchanged ~s({"access_token":"access-sandbox-1","item_id":"item_1","rotated":false})

  defp answer(status, headers \\ [], body), do: {:ok, %{status: status, headers: headers, body: body}}

  defp api_error(status, type, code), do: ~s({"error":{"type":"#{type}","code":"#{code}","message":"m","request_id":"req_#{status}"}})

  # A client whose transport answers from `script` and whose sleeper records instead of waiting.
  defp scripted(script, options \\ []) do
    {:ok, agent} = Agent.start_link(fn -> %{script: script, requests: [], sleeps: []} end)

    transport = fn method, url, headers, body, _timeout ->
      Agent.get_and_update(agent, fn %{script: [next | rest]} = s ->
        {next, %{s | script: rest, requests: s.requests ++ [%{method: method, url: url, headers: headers, body: body}]}}
      end)
    end

    sleep = fn ms -> Agent.update(agent, fn s -> %{s | sleeps: s.sleeps ++ [ms]} end) end
    client = Client.new("http://api.test/", "fc_sk_test_abcdefghijklmnopqrstuvwx", [transport: transport, sleep: sleep] ++ options)
    {client, fn key -> Agent.get(agent, &Map.fetch!(&1, key)) end}
  end

  test "sends bearer JSON, leaves unset optional fields out and decodes into the model" do
    {client, seen} = scripted([answer(200, @sync_page)])

    assert {:ok, %Fincore.Models.TransactionsSyncResponse{next_cursor: "c1", has_more: false}} =
             Fincore.Transactions.sync(client, access_token: "access-sandbox-1", count: 500)

    [request] = seen.(:requests)
    assert request.method == "POST"
    assert request.url == "http://api.test/v1/transactions/sync"
    assert {"Authorization", "Bearer fc_sk_test_abcdefghijklmnopqrstuvwx"} in request.headers
    assert {"Content-Type", "application/json"} in request.headers
    refute Enum.any?(request.headers, fn {k, _} -> k == "FC-Version" end)
    assert Fincore.JSON.decode!(request.body) == %{"access_token" => "access-sandbox-1", "count" => 500}
  end

  test "a struct request and nested models round-trip through the wire names" do
    {client, seen} = scripted([answer(200, ~s({"link_token":"lt","expiration":"2026-01-01T00:00:00Z"}))])
    request = %Fincore.Models.LinkTokenCreateRequest{user: %Fincore.Models.LinkTokenCreateRequestUser{client_user_id: "u1"}, products: [:transactions]}
    assert {:ok, %{link_token: "lt"}} = Fincore.Link.token_create(client, request)
    [sent] = seen.(:requests)
    assert Fincore.JSON.decode!(sent.body) == %{"user" => %{"client_user_id" => "u1"}, "products" => ["transactions"]}
  end

  test "retries a 429 after the Retry-After seconds" do
    {client, seen} = scripted([answer(429, [{"retry-after", "3"}], api_error(429, "rate_limit_error", "rate_limit_exceeded")), answer(200, @sync_page)])
    assert {:ok, _} = Fincore.Transactions.sync(client, access_token: "a")
    assert seen.(:sleeps) == [3000]
    assert length(seen.(:requests)) == 2
  end

  test "never retries a monthly quota 429 and keeps its Retry-After" do
    for code <- ["monthly_api_quota_exceeded", "monthly_ai_quota_exceeded"] do
      {client, seen} = scripted([answer(429, [{"retry-after", "1209600"}], api_error(429, "rate_limit_error", code)), answer(200, @sync_page)])
      assert {:error, %Error{status: 429, code: ^code, retry_after: 1_209_600}} = Fincore.Transactions.sync(client, access_token: "a")
      assert seen.(:sleeps) == []
      assert length(seen.(:requests)) == 1
    end
  end

  test "a 429 asking for more than 60 seconds fails at once with the wait" do
    {client, seen} = scripted([answer(429, [{"retry-after", "61"}], api_error(429, "rate_limit_error", "rate_limit_exceeded")), answer(200, @sync_page)])
    assert {:error, %Error{status: 429, code: "rate_limit_exceeded", retry_after: 61}} = Fincore.Transactions.sync(client, access_token: "a")
    assert seen.(:sleeps) == []
    assert length(seen.(:requests)) == 1
  end

  test "retries a 429 even for a call that is not safe to repeat" do
    {client, seen} = scripted([answer(429, api_error(429, "rate_limit_error", "rate_limit_exceeded")), answer(200, @exchanged)])
    assert {:ok, %{item_id: "item_1"}} = Fincore.Link.token_exchange(client, public_token: "p")
    # No Retry-After: the first backoff step.
    assert seen.(:sleeps) == [500]
  end

  test "gives up after max_retries with the last error" do
    limited = answer(429, [{"Retry-After", "1"}], api_error(429, "rate_limit_error", "rate_limit_exceeded"))
    {client, seen} = scripted([limited, limited, limited])
    assert {:error, %Error{status: 429, code: "rate_limit_exceeded", retry_after: 1}} = Fincore.Transactions.sync(client, access_token: "a")
    assert length(seen.(:requests)) == 3
  end

  test "retries a 5xx with exponential backoff on a safe call" do
    down = answer(503, api_error(503, "api_error", "service_unavailable"))
    {client, seen} = scripted([down, down, answer(200, @sync_page)])
    assert {:ok, _} = Fincore.Transactions.sync(client, access_token: "a")
    assert seen.(:sleeps) == [500, 1000]
  end

  test "never retries a 5xx on a call that is not safe to repeat" do
    {client, seen} = scripted([answer(500, api_error(500, "api_error", "internal_error"))])
    assert {:error, %Error{status: 500, type: "api_error", code: "internal_error"}} = Fincore.Link.token_exchange(client, public_token: "p")
    assert length(seen.(:requests)) == 1
    assert seen.(:sleeps) == []
  end

  test "network errors are retried only when safe" do
    {client, seen} = scripted([{:error, {:io, "reset"}}, answer(200, @sync_page)])
    assert {:ok, _} = Fincore.Transactions.sync(client, access_token: "a")
    assert length(seen.(:requests)) == 2

    {client, seen} = scripted([{:error, {:timeout, "slow"}}])
    assert {:error, %Error{status: 0, type: "network_error", code: "timeout"}} = Fincore.Link.token_exchange(client, public_token: "p")
    assert length(seen.(:requests)) == 1
  end

  test "max_retries is configurable" do
    {client, seen} = scripted([answer(503, api_error(503, "api_error", "service_unavailable"))], max_retries: 0)
    assert {:error, %Error{status: 503}} = Fincore.Transactions.sync(client, access_token: "a")
    assert length(seen.(:requests)) == 1
  end

  test "maps the error body to the error type, and the bang variant raises it" do
    body = api_error(400, "invalid_request", "invalid_access_token")
    {client, seen} = scripted([answer(400, [{"X-Request-Id", "req_header"}], body), answer(400, body)])

    assert {:error, %Error{status: 400, type: "invalid_request", code: "invalid_access_token", message: "m", request_id: "req_400"}} =
             Fincore.Items.get(client, access_token: "a")

    assert_raise Error, ~r/invalid_access_token/, fn -> Fincore.Items.get!(client, access_token: "a") end
    assert seen.(:sleeps) == []
  end

  test "a non-JSON error answer still becomes the error type" do
    {client, _} = scripted([answer(502, [{"x-request-id", "req_gw"}], "<html>bad gateway</html>")], max_retries: 0)
    assert {:error, %Error{status: 502, type: "api_error", code: "http_502", request_id: "req_gw"}} = Fincore.Items.get(client, access_token: "a")
  end

  test "unknown response keys are tolerated" do
    {client, _} = scripted([answer(200, ~s({"removed":true,"brand_new_key":{"nested":[1]}}))])
    assert {:ok, %Fincore.Models.ItemsRemoveResponse{removed: true}} = Fincore.Items.remove(client, access_token: "a")
  end

  # A one-connection-at-a-time HTTP stub on :gen_tcp answering each request with the next raw response.
  defp stub(responses) do
    {:ok, listen} = :gen_tcp.listen(0, [:binary, active: false, reuseaddr: true, ip: {127, 0, 0, 1}])
    {:ok, port} = :inet.port(listen)
    parent = self()

    spawn_link(fn ->
      for response <- responses do
        {:ok, socket} = :gen_tcp.accept(listen)
        request = read_request(socket, "")
        send(parent, {:stub_request, request})
        :ok = :gen_tcp.send(socket, response)
        :gen_tcp.close(socket)
      end
    end)

    "http://127.0.0.1:#{port}"
  end

  defp read_request(socket, acc) do
    with [head, body] <- :binary.split(acc, "\r\n\r\n"),
         [_, length] <- Regex.run(~r/content-length:\s*(\d+)/i, head),
         true <- byte_size(body) >= String.to_integer(length) do
      acc
    else
      _ ->
        {:ok, data} = :gen_tcp.recv(socket, 0, 5000)
        read_request(socket, acc <> data)
    end
  end

  test "the :httpc transport talks to a real HTTP server, chunked answers included" do
    error_body = ~s({"error":{"type":"rate_limit_error","code":"rate_limit_exceeded","message":"slow","request_id":"r"}})
    {first, second} = String.split_at(@sync_page, 16)

    base =
      stub([
        "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 0\r\nContent-Type: application/json\r\nContent-Length: #{byte_size(error_body)}\r\nConnection: close\r\n\r\n" <>
          error_body,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" <>
          Integer.to_string(byte_size(first), 16) <>
          "\r\n" <> first <> "\r\n" <> Integer.to_string(byte_size(second), 16) <> "\r\n" <> second <> "\r\n0\r\n\r\n"
      ])

    parent = self()
    client = Client.new(base, "fc_sk_test_abcdefghijklmnopqrstuvwx", sleep: fn ms -> send(parent, {:slept, ms}) end, timeout_ms: 10_000)
    assert {:ok, %{next_cursor: "c1"}} = Fincore.Transactions.sync(client, access_token: "access-sandbox-1", count: 500)
    assert_received {:slept, 0}
    assert_received {:stub_request, request}
    assert request =~ ~r/\APOST \/v1\/transactions\/sync HTTP\/1.1\r\n/
    assert request =~ ~r/authorization: Bearer fc_sk_test_abcdefghijklmnopqrstuvwx\r\n/i

    assert String.ends_with?(request, ~s({"access_token":"access-sandbox-1","count":500})) or
             String.ends_with?(request, ~s({"count":500,"access_token":"access-sandbox-1"}))
  end

  test "the :httpc transport reports a timeout as a network error" do
    {:ok, listen} = :gen_tcp.listen(0, [:binary, active: false, ip: {127, 0, 0, 1}])
    {:ok, port} = :inet.port(listen)
    # Accepted by the kernel's backlog but never answered.
    client = Client.new("http://127.0.0.1:#{port}", "fc_sk_test_abcdefghijklmnopqrstuvwx", timeout_ms: 200, max_retries: 0)
    assert {:error, %Error{status: 0, type: "network_error", code: "timeout"}} = Fincore.Items.get(client, access_token: "a")
    :gen_tcp.close(listen)
  end
end
