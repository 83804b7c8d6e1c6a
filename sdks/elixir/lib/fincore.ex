defmodule Fincore do
  @moduledoc """
  Fincore API client for Elixir, on OTP alone (`:httpc`, `:crypto`).

      client = Fincore.Client.new("http://127.0.0.1:3000", System.fetch_env!("FINCORE_API_KEY"))
      {:ok, page} = Fincore.Transactions.sync(client, access_token: token, count: 500)

  Method groups (generated from openapi.json): `Fincore.Institutions`, `Fincore.Link`,
  `Fincore.Items`, `Fincore.Accounts`, `Fincore.Transactions`, `Fincore.Products`, `Fincore.AI`,
  `Fincore.Webhooks`, `Fincore.Sandbox`; models in `Fincore.Models`. Each method returns
  `{:ok, response}` or `{:error, %Fincore.Error{}}`, and has a `!` variant that raises.
  Webhook verification: `Fincore.Webhook.verify/5`.
  """
end
