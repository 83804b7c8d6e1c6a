// The smoke test against a running service (bin/test-sdks.ts gives it FC_BASE_URL, FC_API_KEY and a
// captured delivery): sandbox token -> exchange -> wait for the history -> accounts -> full sync ->
// one error case -> verify the delivery. Prints one line `SMOKE {json}`.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Threading;
using Fincore;

internal static class Smoke
{
    private static int Main()
    {
        var client = new FincoreClient(Environment.GetEnvironmentVariable("FC_API_KEY"),
            new FincoreClientOptions { BaseUrl = Environment.GetEnvironmentVariable("FC_BASE_URL") });

        var publicToken = client.Sandbox.PublicTokenCreate(new SandboxPublicTokenCreateRequest
        {
            InstitutionId = "ins_sandbox_first_bank",
            Products = new List<string> { "transactions" },
        }).PublicToken;
        var item = client.Link.TokenExchange(new LinkTokenExchangeRequest { PublicToken = publicToken });
        var token = new AccessTokenRequest { AccessToken = item.AccessToken };

        var clock = Stopwatch.StartNew();
        while (client.Items.Get(token).Item.TransactionsUpdateStatus != "historical_update_complete")
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(60)) throw new Exception("the history did not finish loading within 60 s");
            Thread.Sleep(200);
        }

        var accounts = client.Accounts.Get(new AccountsGetRequest { AccessToken = item.AccessToken }).Accounts.Count;

        long added = 0, pages = 0;
        string cursor = null;
        while (true)
        {
            var page = client.Transactions.Sync(new TransactionsSyncRequest { AccessToken = item.AccessToken, Cursor = cursor, Count = 500 });
            pages++;
            added += page.Added.Count;
            cursor = page.NextCursor;
            if (!page.HasMore) break;
        }

        FincoreException error = null;
        try
        {
            client.Items.Get(new AccessTokenRequest { AccessToken = "access-sandbox-00000000-0000-0000-0000-000000000000" });
        }
        catch (FincoreException e)
        {
            error = e;
        }
        if (error == null) throw new Exception("the bad access token did not raise FincoreException");

        var webhookEvent = WebhookVerifier.Verify(File.ReadAllBytes(Environment.GetEnvironmentVariable("FC_WEBHOOK_BODY_FILE")),
            Environment.GetEnvironmentVariable("FC_WEBHOOK_SIGNATURE"), Environment.GetEnvironmentVariable("FC_WEBHOOK_TIMESTAMP"),
            new[] { Environment.GetEnvironmentVariable("FC_WEBHOOK_SECRET") });

        Console.WriteLine("SMOKE " + Json.Stringify(new SortedDictionary<string, object>
        {
            { "language", "csharp" },
            { "accounts", (long)accounts },
            { "added", added },
            { "pages", pages },
            { "error", new SortedDictionary<string, object>
                {
                    { "status", (long)error.Status }, { "type", error.Type }, { "code", error.Code },
                    { "request_id_present", !string.IsNullOrEmpty(error.RequestId) },
                    { "documentation_url", error.DocumentationUrl },
                    { "display_message", error.DisplayMessage },
                }
            },
            { "webhook_type", webhookEvent.Type },
        }));
        return 0;
    }
}
