using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Net.Http;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Fincore
{
    /// <summary>
    /// The one error every call throws: an answer from the API that was not a success, or a request
    /// that never got one (Status 0, Type "connection_error").
    /// </summary>
    public class FincoreException : Exception
    {
        public FincoreException(int status, string type, string code, string message, string requestId = null, TimeSpan? retryAfter = null, Exception inner = null, string documentationUrl = null, string displayMessage = null)
            : base(message, inner)
        {
            Status = status;
            Type = type;
            Code = code;
            RequestId = requestId;
            RetryAfter = retryAfter;
            DocumentationUrl = documentationUrl;
            DisplayMessage = displayMessage;
        }

        /// <summary>The HTTP status; 0 when no answer arrived.</summary>
        public int Status { get; }

        /// <summary>The error's family: invalid_request, authentication, rate_limit, api_error, connection_error, ...</summary>
        public string Type { get; }

        /// <summary>The precise reason: invalid_field, invalid_access_token, rate_limit_exceeded, monthly_api_quota_exceeded, timeout, ...</summary>
        public string Code { get; }

        /// <summary>The request's id in Fincore's logs; null when the API never answered.</summary>
        public string RequestId { get; }

        /// <summary>The wait the API asked for (Retry-After), or null.</summary>
        public TimeSpan? RetryAfter { get; }

        /// <summary>Where the code is explained ({base_url}/docs/errors#&lt;code&gt;); null without an error body.</summary>
        public string DocumentationUrl { get; }

        /// <summary>A sentence safe to show your end user; null when the error is the integration's to fix.</summary>
        public string DisplayMessage { get; }

        public override string ToString() => $"FincoreException(Status={Status}, Type={Type}, Code={Code}, Message={Message}, RequestId={RequestId})";
    }

    /// <summary>Settings of a <see cref="FincoreClient"/>.</summary>
    public sealed class FincoreClientOptions
    {
        /// <summary>Another deployment (a local service, a staging stack).</summary>
        public string BaseUrl { get; set; } = FincoreClient.DefaultBaseUrl;

        /// <summary>The limit for each attempt (default 30 s).</summary>
        public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(30);

        /// <summary>How many times a failed call is retried (default 2; 0 turns retries off).</summary>
        public int MaxRetries { get; set; } = 2;

        /// <summary>The wait between retries; tests pass one that returns at once.</summary>
        public Func<TimeSpan, CancellationToken, Task> Sleeper { get; set; } = (delay, token) => Task.Delay(delay, token);

        /// <summary>A preconfigured HttpClient (proxy, TLS); its own Timeout is not used.</summary>
        public HttpClient HttpClient { get; set; }
    }

    /// <summary>
    /// Sends one call: bearer auth, JSON, a timeout per attempt, and retries. A 429 is retried (the
    /// API did nothing) unless it is a monthly quota or its Retry-After is over 60 s: those are
    /// thrown at once with RetryAfter set. A 5xx, a timeout or a lost connection only when the call is safe to
    /// repeat, because the first attempt may have taken effect.
    /// </summary>
    public sealed class Transport
    {
        private readonly HttpClient http;
        private readonly string baseUrl;
        private readonly string apiKey;
        private readonly TimeSpan timeout;
        private readonly int maxRetries;
        private readonly Func<TimeSpan, CancellationToken, Task> sleeper;

        internal Transport(string apiKey, FincoreClientOptions options)
        {
            if (options.MaxRetries < 0) throw new ArgumentOutOfRangeException(nameof(options), "MaxRetries must be 0 or more");
            this.apiKey = apiKey ?? throw new ArgumentNullException(nameof(apiKey));
            baseUrl = (options.BaseUrl ?? FincoreClient.DefaultBaseUrl).TrimEnd('/');
            timeout = options.Timeout;
            maxRetries = options.MaxRetries;
            sleeper = options.Sleeper;
            http = options.HttpClient ?? new HttpClient { Timeout = System.Threading.Timeout.InfiniteTimeSpan };
        }

        /// <summary>The longest Retry-After the client sleeps through itself; a longer one is the caller's decision.</summary>
        public static readonly TimeSpan MaxRetryAfter = TimeSpan.FromSeconds(60);

        /// <summary>429 codes whose Retry-After is the time to the monthly reset (days or weeks).</summary>
        public static readonly IReadOnlyCollection<string> MonthlyQuotaCodes = new[] { "monthly_api_quota_exceeded", "monthly_ai_quota_exceeded" };

        /// <summary>
        /// Whether a 429 is slept off and retried: not a monthly quota, and no Retry-After over
        /// <see cref="MaxRetryAfter"/> (a sleep of minutes or weeks would look like a hang).
        /// </summary>
        public static bool RateLimitWorthWaitingFor(FincoreException error) =>
            !MonthlyQuotaCodes.Contains(error.Code) && !(error.RetryAfter > MaxRetryAfter);

        /// <summary>The wait before retry number attempt+1 without a Retry-After: 0.5 s, 1 s, 2 s, ... at most 8 s.</summary>
        public static TimeSpan Backoff(int attempt) => TimeSpan.FromMilliseconds(Math.Min(8000L, 500L << Math.Min(attempt, 10)));

        internal async Task<T> CallAsync<T>(string path, bool retrySafe, Dictionary<string, object> body, Func<object, T> decode, CancellationToken cancellationToken)
        {
            var payload = body == null ? "{}" : Json.Stringify(body);
            for (var attempt = 0; ; attempt++)
            {
                FincoreException failure;
                bool retryable;
                using (var attemptToken = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
                using (var request = new HttpRequestMessage(HttpMethod.Post, baseUrl + path))
                {
                    attemptToken.CancelAfter(timeout);
                    request.Headers.TryAddWithoutValidation("Authorization", "Bearer " + apiKey);
                    request.Headers.TryAddWithoutValidation("Accept", "application/json");
                    request.Headers.TryAddWithoutValidation("User-Agent", "fincore-csharp/" + FincoreApi.ApiVersion);
                    request.Content = new StringContent(payload, Encoding.UTF8, "application/json");
                    try
                    {
                        using (var response = await http.SendAsync(request, attemptToken.Token).ConfigureAwait(false))
                        {
                            var text = await response.Content.ReadAsStringAsync().ConfigureAwait(false);
                            var status = (int)response.StatusCode;
                            var requestId = Header(response, "X-Request-Id");
                            if (status >= 200 && status < 300)
                            {
                                try
                                {
                                    return decode(Json.Parse(text));
                                }
                                catch (JsonException e)
                                {
                                    throw new FincoreException(status, "api_error", "invalid_response", "the answer is not the expected JSON: " + e.Message, requestId, null, e);
                                }
                            }
                            failure = ErrorFrom(status, Header(response, "Retry-After"), requestId, text);
                            retryable = status == 429 ? RateLimitWorthWaitingFor(failure) : status >= 500 && retrySafe;
                        }
                    }
                    catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
                    {
                        failure = new FincoreException(0, "connection_error", "timeout", "no answer within " + timeout, null, null, e);
                        retryable = retrySafe;
                    }
                    catch (HttpRequestException e)
                    {
                        failure = new FincoreException(0, "connection_error", "network_error", e.InnerException?.Message ?? e.Message, null, null, e);
                        retryable = retrySafe;
                    }
                }
                if (!retryable || attempt >= maxRetries) throw failure;
                await sleeper(failure.RetryAfter ?? Backoff(attempt), cancellationToken).ConfigureAwait(false);
            }
        }

        private static string Header(HttpResponseMessage response, string name)
        {
            IEnumerable<string> values;
            if (response.Headers.TryGetValues(name, out values)) return values.FirstOrDefault();
            return null;
        }

        /// <summary>The API's error body ({"error": {type, code, message, request_id}}); anything else still keeps its status.</summary>
        public static FincoreException ErrorFrom(int status, string retryAfterHeader, string requestId, string body)
        {
            var retryAfter = ParseRetryAfter(retryAfterHeader);
            try
            {
                var error = Json.AsObject(Json.AsObject(Json.Parse(body ?? "")).TryGet("error"));
                var bodyRequestId = error.TryGet("request_id") as string;
                return new FincoreException(status, Json.AsString(error.TryGet("type")), Json.AsString(error.TryGet("code")), Json.AsString(error.TryGet("message")), bodyRequestId ?? requestId, retryAfter,
                    documentationUrl: error.TryGet("documentation_url") as string, displayMessage: error.TryGet("display_message") as string);
            }
            catch (JsonException)
            {
                var excerpt = (body ?? "").Trim();
                if (excerpt.Length > 200) excerpt = excerpt.Substring(0, 200);
                return new FincoreException(status, "api_error", "unexpected_response", $"HTTP {status} with a body that is not a Fincore error: {excerpt}", requestId, retryAfter);
            }
        }

        /// <summary>
        /// Retry-After in whole or fractional seconds; dates and nonsense count as absent. Long waits
        /// are kept (a monthly quota's runs to weeks): the caller needs them to schedule the retry.
        /// </summary>
        public static TimeSpan? ParseRetryAfter(string header)
        {
            double seconds;
            if (header == null || !double.TryParse(header.Trim(), NumberStyles.Float, CultureInfo.InvariantCulture, out seconds)) return null;
            if (!(seconds >= 0) || double.IsInfinity(seconds)) return null;
            if (seconds >= TimeSpan.MaxValue.TotalSeconds) return TimeSpan.MaxValue;
            return TimeSpan.FromMilliseconds(Math.Round(seconds * 1000));
        }
    }

    internal static class DictionaryExtensions
    {
        public static object TryGet(this Dictionary<string, object> map, string key)
        {
            object value;
            return map.TryGetValue(key, out value) ? value : null;
        }
    }

    /// <summary>
    /// The Fincore API client: one property per method group (client.Transactions.SyncAsync(...), or
    /// the blocking client.Transactions.Sync(...)). Thread-safe; create one and share it.
    /// </summary>
    public sealed class FincoreClient : FincoreApi
    {
        public const string DefaultBaseUrl = "https://api.fincore.dev";

        public FincoreClient(string apiKey, FincoreClientOptions options = null)
            : base(new Transport(apiKey, options ?? new FincoreClientOptions()))
        {
        }
    }
}
