# The smoke journey against a running Fincore service (bin/sdks/language.ts, SmokeSummary):
# sandbox public token -> exchange -> wait for the history -> accounts -> full sync loop -> one
# error case -> verify a real captured webhook delivery. Prints one `SMOKE {json}` line.
env = &System.fetch_env!/1
client = Fincore.Client.new(env.("FC_BASE_URL"), env.("FC_API_KEY"))

%{public_token: public_token} = Fincore.Sandbox.public_token_create!(client, institution_id: "ins_sandbox_first_bank", products: ["transactions"])

%{access_token: access_token} = Fincore.Link.token_exchange!(client, public_token: public_token)

deadline = System.monotonic_time(:millisecond) + 60_000

wait_for_history = fn wait ->
  %{item: item} = Fincore.Items.get!(client, access_token: access_token)

  cond do
    item.transactions_update_status == "historical_update_complete" ->
      :ok

    System.monotonic_time(:millisecond) > deadline ->
      raise "the item's history was not ready within 60 s"

    true ->
      Process.sleep(200)
      wait.(wait)
  end
end

wait_for_history.(wait_for_history)

%{accounts: accounts} = Fincore.Accounts.get!(client, access_token: access_token)

sync = fn sync, cursor, added, pages ->
  page = Fincore.Transactions.sync!(client, access_token: access_token, cursor: cursor, count: 500)
  added = added + length(page.added)
  if page.has_more, do: sync.(sync, page.next_cursor, added, pages + 1), else: {added, pages + 1}
end

{added, pages} = sync.(sync, nil, 0, 0)

{:error, %Fincore.Error{} = error} = Fincore.Items.get(client, access_token: "access-sandbox-00000000-0000-0000-0000-000000000000")

{:ok, event} =
  Fincore.Webhook.verify(
    File.read!(env.("FC_WEBHOOK_BODY_FILE")),
    env.("FC_WEBHOOK_SIGNATURE"),
    env.("FC_WEBHOOK_TIMESTAMP"),
    [env.("FC_WEBHOOK_SECRET")]
  )

summary = %{
  language: "elixir",
  accounts: length(accounts),
  added: added,
  pages: pages,
  error: %{
    status: error.status,
    type: error.type,
    code: error.code,
    request_id_present: is_binary(error.request_id) and error.request_id != "",
    documentation_url: error.documentation_url,
    display_message: error.display_message
  },
  webhook_type: event.type
}

IO.puts("SMOKE " <> Fincore.JSON.encode!(summary))
