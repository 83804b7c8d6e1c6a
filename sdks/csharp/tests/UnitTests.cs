// The unit tests, run with mono (no test framework can be fetched offline): a tiny runner that
// counts passes and failures and exits non-zero on any failure.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Fincore;

internal static class UnitTests
{
    private static int passed;
    private static int failed;

    private static void Test(string name, Action body)
    {
        try
        {
            body();
            passed++;
        }
        catch (Exception e)
        {
            failed++;
            Console.WriteLine("FAIL " + name + ": " + e.Message);
        }
    }

    private static void Check(bool condition, string message)
    {
        if (!condition) throw new Exception(message);
    }

    private sealed class Reply
    {
        public int Status;
        public string Body;
        public Dictionary<string, string> Headers = new Dictionary<string, string>();
    }

    private static Reply R(int status, string body, params string[] headers)
    {
        var reply = new Reply { Status = status, Body = body };
        for (var i = 0; i + 1 < headers.Length; i += 2) reply.Headers[headers[i]] = headers[i + 1];
        return reply;
    }

    /// <summary>A local HTTP stub that answers with the scripted replies (the last one repeats) and records the requests.</summary>
    private sealed class Stub : IDisposable
    {
        private readonly HttpListener listener = new HttpListener();
        private readonly List<Reply> script;
        public readonly List<string> Bodies = new List<string>();
        public readonly List<string> Auth = new List<string>();
        public readonly List<string> Paths = new List<string>();
        public readonly string Url;

        public Stub(params Reply[] replies)
        {
            script = replies.ToList();
            var probe = new TcpListener(IPAddress.Loopback, 0);
            probe.Start();
            var port = ((IPEndPoint)probe.LocalEndpoint).Port;
            probe.Stop();
            Url = "http://127.0.0.1:" + port;
            listener.Prefixes.Add(Url + "/");
            listener.Start();
            Task.Run(() => Serve());
        }

        private void Serve()
        {
            while (listener.IsListening)
            {
                HttpListenerContext context;
                try
                {
                    context = listener.GetContext();
                }
                catch (Exception)
                {
                    return;
                }
                Reply reply;
                lock (this)
                {
                    using (var reader = new StreamReader(context.Request.InputStream, Encoding.UTF8)) Bodies.Add(reader.ReadToEnd());
                    Auth.Add(context.Request.Headers["Authorization"]);
                    Paths.Add(context.Request.HttpMethod + " " + context.Request.Url.AbsolutePath);
                    reply = script[0];
                    if (script.Count > 1) script.RemoveAt(0);
                }
                foreach (var header in reply.Headers) context.Response.Headers[header.Key] = header.Value;
                context.Response.StatusCode = reply.Status;
                context.Response.ContentType = "application/json";
                var bytes = Encoding.UTF8.GetBytes(reply.Body);
                context.Response.ContentLength64 = bytes.Length;
                context.Response.OutputStream.Write(bytes, 0, bytes.Length);
                context.Response.Close();
            }
        }

        public void Dispose()
        {
            listener.Close();
        }
    }

    private const string OkItem = "{\"item\":{\"item_id\":\"item_1\",\"institution_id\":\"ins_1\",\"institution_name\":\"First\",\"status\":\"healthy\",\"connector\":\"sandbox\",\"error\":null,\"consented_products\":[\"transactions\"],\"last_successful_sync\":null,\"created_at\":\"2026-01-01T00:00:00Z\",\"transactions_update_status\":\"historical_update_complete\",\"some_future_field\":1}}";
    private static readonly Reply ServerError = R(500, "{\"error\":{\"type\":\"api_error\",\"code\":\"internal_error\",\"message\":\"boom\",\"request_id\":\"req_500\"}}");

    private static Reply RateLimited(string retryAfter, string code = "rate_limit_exceeded")
    {
        var body = "{\"error\":{\"type\":\"rate_limit_error\",\"code\":\"" + code + "\",\"message\":\"slow down\",\"request_id\":\"req_rl\"}}";
        return retryAfter == null ? R(429, body, "X-Request-Id", "req_rl") : R(429, body, "X-Request-Id", "req_rl", "Retry-After", retryAfter);
    }

    private static FincoreClient Client(string url, List<TimeSpan> waits, int maxRetries = 2)
    {
        return new FincoreClient("fc_sk_test_abcdefghijklmnop", new FincoreClientOptions
        {
            BaseUrl = url,
            MaxRetries = maxRetries,
            Sleeper = (delay, token) => { waits.Add(delay); return Task.FromResult(0); },
        });
    }

    private static FincoreException ExpectError(Action body)
    {
        try
        {
            body();
        }
        catch (FincoreException e)
        {
            return e;
        }
        throw new Exception("expected a FincoreException");
    }

    private static void TransportTests()
    {
        Test("sends the bearer key and JSON, decodes tolerantly", () =>
        {
            using (var stub = new Stub(R(200, OkItem)))
            {
                var res = Client(stub.Url, new List<TimeSpan>()).Items.Get(new AccessTokenRequest { AccessToken = "fc_at_x" });
                Check(res.Item.ItemId == "item_1", "item id");
                Check(res.Item.TransactionsUpdateStatus == "historical_update_complete", "status");
                Check(res.Item.Error == null, "error null");
                Check(stub.Auth[0] == "Bearer fc_sk_test_abcdefghijklmnop", "auth " + stub.Auth[0]);
                Check(stub.Paths[0] == "POST /v1/items/get", "path " + stub.Paths[0]);
                Check(stub.Bodies[0] == "{\"access_token\":\"fc_at_x\"}", "body " + stub.Bodies[0]);
            }
        });
        Test("optional request fields stay out of the body; async works", () =>
        {
            using (var stub = new Stub(R(200, "{\"added\":[],\"modified\":[],\"removed\":[],\"next_cursor\":\"c\",\"has_more\":false,\"transactions_update_status\":\"not_ready\"}")))
            {
                var c = Client(stub.Url, new List<TimeSpan>());
                c.Transactions.Sync(new TransactionsSyncRequest { AccessToken = "fc_at_x" });
                var page = c.Transactions.SyncAsync(new TransactionsSyncRequest { AccessToken = "fc_at_x", Count = 500 }).Result;
                Check(page.NextCursor == "c" && !page.HasMore, "page");
                Check(stub.Bodies[0] == "{\"access_token\":\"fc_at_x\"}", "body " + stub.Bodies[0]);
                Check(stub.Bodies[1] == "{\"access_token\":\"fc_at_x\",\"count\":500}", "body " + stub.Bodies[1]);
            }
        });
        Test("an optional body may be left out", () =>
        {
            using (var stub = new Stub(R(200, "{\"categories\":[]}")))
            {
                Client(stub.Url, new List<TimeSpan>()).Products.CategoriesGet();
                Check(stub.Bodies[0] == "{}", "body " + stub.Bodies[0]);
            }
        });
        Test("429 is retried honouring Retry-After, even on an unsafe call", () =>
        {
            using (var stub = new Stub(RateLimited("3"), R(200, "{\"access_token\":\"fc_at_1\",\"item_id\":\"item_1\",\"rotated\":false}")))
            {
                var waits = new List<TimeSpan>();
                Client(stub.Url, waits).Link.TokenExchange(new LinkTokenExchangeRequest { PublicToken = "public-sandbox-x" });
                Check(stub.Bodies.Count == 2, "attempts " + stub.Bodies.Count);
                Check(waits.SequenceEqual(new[] { TimeSpan.FromSeconds(3) }), "waits " + string.Join(",", waits));
            }
        });
        Test("429 without Retry-After backs off exponentially, then gives up", () =>
        {
            using (var stub = new Stub(RateLimited(null)))
            {
                var waits = new List<TimeSpan>();
                var e = ExpectError(() => Client(stub.Url, waits).Items.Get(new AccessTokenRequest { AccessToken = "fc_at_x" }));
                Check(e.Status == 429 && e.Type == "rate_limit_error" && e.Code == "rate_limit_exceeded", "error " + e);
                Check(stub.Bodies.Count == 3, "attempts " + stub.Bodies.Count);
                Check(waits.SequenceEqual(new[] { TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(1) }), "waits " + string.Join(",", waits));
            }
        });
        foreach (var monthlyCode in new[] { "monthly_api_quota_exceeded", "monthly_ai_quota_exceeded" })
        {
            Test("a " + monthlyCode + " 429 is never retried and keeps its Retry-After", () =>
            {
                using (var stub = new Stub(RateLimited("1209600", monthlyCode), R(200, OkItem)))
                {
                    var waits = new List<TimeSpan>();
                    var e = ExpectError(() => Client(stub.Url, waits).Items.Get(new AccessTokenRequest { AccessToken = "fc_at_x" }));
                    Check(e.Status == 429 && e.Code == monthlyCode, "error " + e);
                    Check(e.RetryAfter == TimeSpan.FromSeconds(1209600), "retry after " + e.RetryAfter);
                    Check(stub.Bodies.Count == 1, "attempts " + stub.Bodies.Count);
                    Check(waits.Count == 0, "waits " + string.Join(",", waits));
                }
            });
        }
        Test("a 429 asking for more than 60 s is thrown at once with the wait", () =>
        {
            using (var stub = new Stub(RateLimited("61"), R(200, OkItem)))
            {
                var waits = new List<TimeSpan>();
                var e = ExpectError(() => Client(stub.Url, waits).Items.Get(new AccessTokenRequest { AccessToken = "fc_at_x" }));
                Check(e.Status == 429 && e.Code == "rate_limit_exceeded", "error " + e);
                Check(e.RetryAfter == TimeSpan.FromSeconds(61), "retry after " + e.RetryAfter);
                Check(stub.Bodies.Count == 1, "attempts " + stub.Bodies.Count);
                Check(waits.Count == 0, "waits " + string.Join(",", waits));
            }
        });
        Test("a 5xx is retried on a safe call", () =>
        {
            using (var stub = new Stub(ServerError, ServerError, R(200, OkItem)))
            {
                var waits = new List<TimeSpan>();
                Client(stub.Url, waits).Items.Get(new AccessTokenRequest { AccessToken = "fc_at_x" });
                Check(stub.Bodies.Count == 3 && waits.Count == 2, "attempts " + stub.Bodies.Count);
            }
        });
        Test("a 5xx is not retried on an unsafe call", () =>
        {
            using (var stub = new Stub(ServerError, R(200, "{}")))
            {
                var waits = new List<TimeSpan>();
                var e = ExpectError(() => Client(stub.Url, waits).Link.TokenExchange(new LinkTokenExchangeRequest { PublicToken = "p" }));
                Check(e.Status == 500 && e.Code == "internal_error" && e.RequestId == "req_500", "error " + e);
                Check(stub.Bodies.Count == 1 && waits.Count == 0, "retried an unsafe call: " + stub.Bodies.Count);
            }
        });
        Test("MaxRetries 0 turns retries off", () =>
        {
            using (var stub = new Stub(ServerError))
            {
                ExpectError(() => Client(stub.Url, new List<TimeSpan>(), 0).Items.Get(new AccessTokenRequest { AccessToken = "fc_at_x" }));
                Check(stub.Bodies.Count == 1, "attempts " + stub.Bodies.Count);
            }
        });
        Test("error mapping: API error body, and a body that is not one", () =>
        {
            using (var stub = new Stub(
                R(400, "{\"error\":{\"type\":\"invalid_request\",\"code\":\"invalid_field\",\"message\":\"bad access_token\",\"request_id\":\"req_b\"}}", "X-Request-Id", "req_h"),
                R(502, "<html>bad gateway</html>", "X-Request-Id", "req_gw")))
            {
                var c = Client(stub.Url, new List<TimeSpan>(), 0);
                var e = ExpectError(() => c.Items.Get(new AccessTokenRequest { AccessToken = "x" }));
                Check(e.Status == 400 && e.Type == "invalid_request" && e.Code == "invalid_field" && e.Message == "bad access_token" && e.RequestId == "req_b", "error " + e);
                var gateway = ExpectError(() => c.Items.Get(new AccessTokenRequest { AccessToken = "x" }));
                Check(gateway.Status == 502 && gateway.Type == "api_error" && gateway.RequestId == "req_gw" && gateway.Message.Contains("bad gateway"), "error " + gateway);
            }
        });
        Test("a network error is retried only on a safe call", () =>
        {
            var probe = new TcpListener(IPAddress.Loopback, 0);
            probe.Start();
            var url = "http://127.0.0.1:" + ((IPEndPoint)probe.LocalEndpoint).Port;
            probe.Stop(); // nothing listens there any more: every attempt fails to connect
            var waits = new List<TimeSpan>();
            var e = ExpectError(() => Client(url, waits).Items.Get(new AccessTokenRequest { AccessToken = "fc_at_x" }));
            Check(e.Status == 0 && e.Type == "connection_error" && waits.Count == 2, "safe: " + e + " " + waits.Count);
            waits.Clear();
            var unsafeCall = ExpectError(() => Client(url, waits).Link.TokenExchange(new LinkTokenExchangeRequest { PublicToken = "p" }));
            Check(unsafeCall.Type == "connection_error" && waits.Count == 0, "unsafe: " + unsafeCall + " " + waits.Count);
        });
        Test("models keep unknown keys and round-trip", () =>
        {
            var res = ItemsGetResponse.FromJson(Json.Parse(OkItem));
            Check(res.Item.ConsentedProducts.SequenceEqual(new[] { "transactions" }), "products");
            Check(Json.Stringify(ItemsGetResponse.FromJson(res.ToJson()).ToJson()) == Json.Stringify(res.ToJson()), "round trip");
            Check(Transport.ParseRetryAfter("1.5") == TimeSpan.FromMilliseconds(1500) && Transport.ParseRetryAfter("soon") == null, "retry-after parsing");
        });
    }

    private static double VectorNumber(object value)
    {
        if (value is long) return (long)value;
        if (value is double) return (double)value;
        switch ((string)value)
        {
            case "NaN": return double.NaN;
            case "Infinity": return double.PositiveInfinity;
            case "-Infinity": return double.NegativeInfinity;
            default: throw new ArgumentException("unknown number " + value);
        }
    }

    private static void VectorTests()
    {
        var path = Environment.GetEnvironmentVariable("FC_WEBHOOK_VECTORS") ?? "../webhook-vectors.json";
        var vectors = Json.AsList(Json.AsObject(Json.Parse(File.ReadAllText(path, Encoding.UTF8)))["vectors"], Json.AsObject);
        Check(vectors.Count > 0, "no vectors");
        foreach (var v in vectors)
        {
            Test("vector: " + v["name"], () =>
            {
                var expected = Json.AsObject(v["expected"]);
                object outcome;
                try
                {
                    var webhookEvent = WebhookVerifier.Verify(Encoding.UTF8.GetBytes(Json.AsString(v["body"])), v["signature"] as string, v["timestamp"] as string,
                        Json.AsList(v["secrets"], Json.AsString), VectorNumber(v["tolerance_seconds"]), VectorNumber(v["now"]));
                    outcome = "ok " + webhookEvent.Type;
                }
                catch (WebhookVerificationException e)
                {
                    outcome = "rejected " + e.Reason;
                }
                catch (ArgumentException)
                {
                    outcome = "invalid_argument";
                }
                var want = expected.ContainsKey("error") ? "invalid_argument"
                    : true.Equals(expected["ok"]) ? "ok " + expected["event_type"] : "rejected " + expected["reason"];
                Check(want.Equals(outcome), "got " + outcome + ", expected " + want);
            });
        }
    }

    private static void JsonTests()
    {
        Test("json round trip and strictness", () =>
        {
            var parsed = Json.Parse(" {\"a\":[1,2.5,-3e2,true,null,\"\\u00e9\\n\"],\"b\":{}} ");
            Check(Json.Stringify(parsed) == "{\"a\":[1,2.5,-300,true,null,\"é\\n\"],\"b\":{}}", Json.Stringify(parsed));
            foreach (var bad in new[] { "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "\"\t\"", "nul", "{} x", "'a'" })
            {
                var rejected = false;
                try
                {
                    Json.Parse(bad);
                }
                catch (JsonException)
                {
                    rejected = true;
                }
                Check(rejected, "accepted " + bad);
            }
        });
    }

    private static int Main()
    {
        TransportTests();
        VectorTests();
        JsonTests();
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 && passed > 0 ? 0 : 1;
    }
}
