package dev.fincore;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;

/**
 * The Fincore API client: one field per method group ({@code client.transactions.sync(...)}).
 *
 * <pre>{@code
 * FincoreClient client = FincoreClient.builder(System.getenv("FINCORE_API_KEY")).build();
 * }</pre>
 *
 * Thread-safe; build one and share it.
 */
public final class FincoreClient extends FincoreApi {
  public static final String DEFAULT_BASE_URL = "https://api.fincore.dev";

  private FincoreClient(Transport transport) {
    super(transport);
  }

  public static Builder builder(String apiKey) {
    return new Builder(apiKey);
  }

  public static final class Builder {
    private final String apiKey;
    private String baseUrl = DEFAULT_BASE_URL;
    private Duration timeout = Duration.ofSeconds(30);
    private int maxRetries = 2;
    private Transport.Sleeper sleeper = duration -> Thread.sleep(duration.toMillis());
    private HttpClient httpClient;

    private Builder(String apiKey) {
      this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
    }

    /** Another deployment (a local service, a staging stack). */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = Objects.requireNonNull(baseUrl);
      return this;
    }

    /** The limit for each attempt (default 30 s). */
    public Builder timeout(Duration timeout) {
      this.timeout = Objects.requireNonNull(timeout);
      return this;
    }

    /** How many times a failed call is retried (default 2; 0 turns retries off). */
    public Builder maxRetries(int maxRetries) {
      if (maxRetries < 0) throw new IllegalArgumentException("maxRetries must be 0 or more");
      this.maxRetries = maxRetries;
      return this;
    }

    /** Replaces the wait between retries (tests pass one that returns at once). */
    public Builder sleeper(Transport.Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper);
      return this;
    }

    /** A preconfigured java.net.http client (proxy, TLS). */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = httpClient;
      return this;
    }

    public FincoreClient build() {
      HttpClient http = httpClient != null ? httpClient : HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
      return new FincoreClient(new Transport(http, baseUrl, apiKey, timeout, maxRetries, sleeper));
    }
  }
}
