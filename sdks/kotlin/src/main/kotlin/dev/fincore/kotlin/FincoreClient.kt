package dev.fincore.kotlin

import java.io.IOException
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.net.http.HttpTimeoutException
import java.time.Duration

/**
 * The one error every call throws: an answer from the API that was not a success, or a request
 * that never got one (status 0, type `connection_error`).
 */
class FincoreException(
    /** The HTTP status; 0 when no answer arrived. */
    val status: Int,
    /** The error's family: invalid_request, authentication_error, rate_limit_error, api_error, connection_error, ... */
    val type: String,
    /** The precise reason: invalid_access_token, rate_limit_exceeded, monthly_api_quota_exceeded, timeout, ... */
    val code: String,
    message: String,
    /** The request's id in Fincore's logs; null when the API never answered. */
    val requestId: String? = null,
    /** The wait the API asked for (Retry-After), or null. */
    val retryAfter: Duration? = null,
    cause: Throwable? = null,
    /** Where the code is explained ({base_url}/docs/errors#<code>); null without an error body. */
    val documentationUrl: String? = null,
    /** A sentence safe to show your end user; null when the error is the integration's to fix. */
    val displayMessage: String? = null
) : RuntimeException(message, cause) {
    override fun toString(): String = "FincoreException(status=$status, type=$type, code=$code, message=$message, requestId=$requestId)"
}

/**
 * Sends one call: bearer auth, JSON, a timeout per attempt, and retries. A 429 is retried (the API
 * did nothing) unless it is a monthly quota or asks for more than 60 s; a 5xx, a timeout or a lost connection only when the call is safe to repeat,
 * because the first attempt may have taken effect.
 */
class Transport internal constructor(
    private val http: HttpClient,
    baseUrl: String,
    private val apiKey: String,
    private val timeout: Duration,
    private val maxRetries: Int,
    private val sleeper: (Duration) -> Unit
) {
    private val baseUrl = baseUrl.trimEnd('/')

    internal fun <T> call(path: String, retrySafe: Boolean, body: Map<String, Any?>?, decode: (Any?) -> T): T {
        val request = HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(timeout)
            .header("Authorization", "Bearer $apiKey")
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .header("User-Agent", "fincore-kotlin/${FincoreApi.API_VERSION}")
            .POST(HttpRequest.BodyPublishers.ofString(if (body == null) "{}" else Json.stringify(body), Charsets.UTF_8))
            .build()
        var attempt = 0
        while (true) {
            // The failure of this attempt and whether it may be retried.
            val (failure, retryable) = try {
                val response = http.send(request, HttpResponse.BodyHandlers.ofString(Charsets.UTF_8))
                val status = response.statusCode()
                val requestId = response.headers().firstValue("X-Request-Id").orElse(null)
                if (status in 200..299) {
                    try {
                        return decode(Json.parse(response.body()))
                    } catch (e: RuntimeException) {
                        throw FincoreException(status, "api_error", "invalid_response", "the answer is not the expected JSON: ${e.message}", requestId, null, e)
                    }
                }
                Pair(errorFrom(status, response.headers().firstValue("Retry-After").orElse(null), requestId, response.body()),
                    status == 429 || (status >= 500 && retrySafe))
            } catch (e: HttpTimeoutException) {
                Pair(FincoreException(0, "connection_error", "timeout", "no answer within $timeout", cause = e), retrySafe)
            } catch (e: IOException) {
                Pair(FincoreException(0, "connection_error", "network_error", e.message ?: e.toString(), cause = e), retrySafe)
            }
            if (!retryable || attempt >= maxRetries || neverRetried(failure)) throw failure
            sleeper(failure.retryAfter ?: backoff(attempt))
            attempt++
        }
    }

    internal companion object {
        /**
         * The longest Retry-After the client sleeps through; a longer one is thrown at once (with its
         * retryAfter kept) so the caller, not a blocked thread, decides when to come back.
         */
        val MAX_RETRY_AFTER_WAIT: Duration = Duration.ofSeconds(60)

        /** A monthly quota 429 carries the time until the monthly reset (days or weeks): never retried. */
        fun neverRetried(failure: FincoreException): Boolean {
            if (failure.code == "monthly_api_quota_exceeded" || failure.code == "monthly_ai_quota_exceeded") return true
            val wait = failure.retryAfter
            return wait != null && wait > MAX_RETRY_AFTER_WAIT
        }

        /** The wait before retry number attempt+1 without a Retry-After: 0.5 s, 1 s, 2 s, ... at most 8 s. */
        fun backoff(attempt: Int): Duration = Duration.ofMillis(minOf(8000L, 500L shl minOf(attempt, 10)))

        /** The API's error body ({"error": {type, code, message, request_id}}); anything else still keeps its status. */
        fun errorFrom(status: Int, retryAfterHeader: String?, requestId: String?, body: String?): FincoreException {
            val retryAfter = parseRetryAfter(retryAfterHeader)
            return try {
                val error = Json.obj(Json.obj(Json.parse(body ?: "")).get("error"))
                FincoreException(status, Json.string(error["type"]), Json.string(error["code"]), Json.string(error["message"]),
                    error["request_id"] as? String ?: requestId, retryAfter,
                    documentationUrl = error["documentation_url"] as? String, displayMessage = error["display_message"] as? String)
            } catch (notAnApiError: JsonException) {
                FincoreException(status, "api_error", "unexpected_response",
                    "HTTP $status with a body that is not a Fincore error: ${(body ?: "").trim().take(200)}", requestId, retryAfter)
            }
        }

        /**
         * Retry-After in whole or fractional seconds; dates and nonsense count as absent. A long wait
         * (a monthly quota reset weeks away) is kept as given.
         */
        fun parseRetryAfter(header: String?): Duration? {
            val seconds = header?.trim()?.toDoubleOrNull() ?: return null
            if (!(seconds >= 0) || seconds > 1e9) return null
            return Duration.ofMillis(Math.round(seconds * 1000))
        }
    }
}

/**
 * The Fincore API client: one property per method group (`client.transactions.sync(...)`).
 * Thread-safe; build one and share it.
 *
 * ```
 * val client = FincoreClient(System.getenv("FINCORE_API_KEY"))
 * ```
 */
class FincoreClient private constructor(transport: Transport) : FincoreApi(transport) {
    /**
     * @param apiKey the secret key (fc_sk_test_... or fc_sk_live_...)
     * @param baseUrl another deployment (a local service, a staging stack)
     * @param timeout the limit for each attempt
     * @param maxRetries how many times a failed call is retried (0 turns retries off)
     * @param sleeper the wait between retries (tests pass one that returns at once)
     */
    constructor(
        apiKey: String,
        baseUrl: String = DEFAULT_BASE_URL,
        timeout: Duration = Duration.ofSeconds(30),
        maxRetries: Int = 2,
        sleeper: (Duration) -> Unit = { Thread.sleep(it.toMillis()) },
        httpClient: HttpClient? = null
    ) : this(
        Transport(
            httpClient ?: HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build(),
            baseUrl, apiKey, timeout, maxRetries.also { require(it >= 0) { "maxRetries must be 0 or more" } }, sleeper
        )
    )

    companion object {
        const val DEFAULT_BASE_URL = "https://api.fincore.dev"
    }
}
