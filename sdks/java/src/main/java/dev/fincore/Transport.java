package dev.fincore;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/**
 * Sends one call: bearer auth, JSON, a timeout per attempt, and retries. A 429 is retried (the API
 * did nothing) unless it is a monthly quota or asks for more than 60 s; a 5xx, a timeout or a lost connection only when the call is safe to
 * repeat, because the first attempt may have taken effect.
 */
public final class Transport {
  /** Waits between retries; tests pass one that returns at once. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  private final HttpClient http;
  private final String baseUrl;
  private final String apiKey;
  private final Duration timeout;
  private final int maxRetries;
  private final Sleeper sleeper;

  Transport(HttpClient http, String baseUrl, String apiKey, Duration timeout, int maxRetries, Sleeper sleeper) {
    this.http = http;
    this.baseUrl = baseUrl.replaceAll("/+$", "");
    this.apiKey = apiKey;
    this.timeout = timeout;
    this.maxRetries = maxRetries;
    this.sleeper = sleeper;
  }

  /** The wait before retry number attempt+1 without a Retry-After: 0.5 s, 1 s, 2 s, ... at most 8 s. */
  static Duration backoff(int attempt) {
    return Duration.ofMillis(Math.min(8000L, 500L << Math.min(attempt, 10)));
  }

  <T> T call(String path, boolean retrySafe, Map<String, Object> body, Function<Object, T> decode) {
    String payload = body == null ? "{}" : Json.stringify(body);
    HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path))
        .timeout(timeout)
        .header("Authorization", "Bearer " + apiKey)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .header("User-Agent", "fincore-java/" + FincoreApi.API_VERSION)
        .POST(HttpRequest.BodyPublishers.ofString(payload, StandardCharsets.UTF_8))
        .build();
    for (int attempt = 0; ; attempt++) {
      FincoreException failure;
      boolean retryable;
      try {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        int status = response.statusCode();
        String requestId = response.headers().firstValue("X-Request-Id").orElse(null);
        if (status >= 200 && status < 300) {
          try {
            return decode.apply(Json.parse(response.body()));
          } catch (RuntimeException e) {
            throw new FincoreException(status, "api_error", "invalid_response", "the answer is not the expected JSON: " + e.getMessage(), requestId, null, e);
          }
        }
        failure = errorFrom(status, response.headers().firstValue("Retry-After").orElse(null), requestId, response.body());
        retryable = status == 429 || (status >= 500 && retrySafe);
      } catch (HttpTimeoutException e) {
        failure = new FincoreException(0, "connection_error", "timeout", "no answer within " + timeout, null, null, e);
        retryable = retrySafe;
      } catch (IOException e) {
        failure = new FincoreException(0, "connection_error", "network_error", String.valueOf(e.getMessage()), null, null, e);
        retryable = retrySafe;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new FincoreException(0, "connection_error", "interrupted", "interrupted", null, null, e);
      }
      if (!retryable || attempt >= maxRetries || neverRetried(failure)) throw failure;
      Duration wait = failure.getRetryAfter() != null ? failure.getRetryAfter() : backoff(attempt);
      try {
        sleeper.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw failure;
      }
    }
  }

  /**
   * The longest Retry-After the client sleeps through; a longer one is thrown at once (with its
   * Retry-After kept) so the caller, not a blocked thread, decides when to come back.
   */
  static final Duration MAX_RETRY_AFTER_WAIT = Duration.ofSeconds(60);

  /** A monthly quota 429 carries the time until the monthly reset (days or weeks): never retried. */
  static boolean neverRetried(FincoreException failure) {
    String code = failure.getCode();
    if ("monthly_api_quota_exceeded".equals(code) || "monthly_ai_quota_exceeded".equals(code)) return true;
    return failure.getRetryAfter() != null && failure.getRetryAfter().compareTo(MAX_RETRY_AFTER_WAIT) > 0;
  }

  /** The API's error body ({"error": {type, code, message, request_id}}); anything else still keeps its status. */
  static FincoreException errorFrom(int status, String retryAfterHeader, String requestId, String body) {
    Duration retryAfter = parseRetryAfter(retryAfterHeader);
    try {
      Map<String, Object> error = Json.asObject(Json.asObject(Json.parse(body)).get("error"));
      Object bodyRequestId = error.get("request_id");
      return new FincoreException(status, Json.asString(error.get("type")), Json.asString(error.get("code")), Json.asString(error.get("message")),
          bodyRequestId instanceof String ? (String) bodyRequestId : requestId, retryAfter, null,
          error.get("documentation_url") instanceof String ? (String) error.get("documentation_url") : null,
          error.get("display_message") instanceof String ? (String) error.get("display_message") : null);
    } catch (RuntimeException notAnApiError) {
      String excerpt = body == null ? "" : body.strip();
      if (excerpt.length() > 200) excerpt = excerpt.substring(0, 200);
      return new FincoreException(status, "api_error", "unexpected_response", "HTTP " + status + " with a body that is not a Fincore error: " + excerpt, requestId, retryAfter, null);
    }
  }

  /**
   * Retry-After in whole or fractional seconds; dates and nonsense count as absent. A long wait (a
   * monthly quota reset weeks away) is kept as given.
   */
  static Duration parseRetryAfter(String header) {
    if (header == null) return null;
    try {
      double seconds = Double.parseDouble(header.strip());
      if (!(seconds >= 0) || seconds > 1e9) return null;
      return Duration.ofMillis(Math.round(seconds * 1000));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
