package dev.fincore;

import com.sun.net.httpserver.HttpServer;
import dev.fincore.model.AccessTokenRequest;
import dev.fincore.model.ItemsGetResponse;
import dev.fincore.model.LinkTokenExchangeRequest;
import dev.fincore.model.TransactionsSyncRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The unit tests, run with plain java (JUnit cannot be fetched offline): a tiny runner that counts
 * passes and failures and exits non-zero on any failure.
 */
public final class UnitTests {
  private interface Body {
    void run() throws Exception;
  }

  private static int passed;
  private static int failed;

  private static void test(String name, Body body) {
    try {
      body.run();
      passed++;
    } catch (Throwable t) {
      failed++;
      System.out.println("FAIL " + name + ": " + t);
    }
  }

  static void check(boolean condition, String message) {
    if (!condition) throw new AssertionError(message);
  }

  /** One scripted answer of the stub server. */
  record Reply(int status, Map<String, String> headers, String body) {}

  /** A local HTTP stub that answers with the scripted replies (the last one repeats) and records the requests. */
  static final class Stub implements AutoCloseable {
    final HttpServer server;
    final List<String> bodies = new ArrayList<>();
    final List<String> auth = new ArrayList<>();
    final List<String> paths = new ArrayList<>();
    private final List<Reply> replies;

    Stub(Reply... replies) throws IOException {
      this.replies = new ArrayList<>(List.of(replies));
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/", exchange -> {
        Reply reply;
        synchronized (this) {
          bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          auth.add(exchange.getRequestHeaders().getFirst("Authorization"));
          paths.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
          reply = this.replies.size() > 1 ? this.replies.remove(0) : this.replies.get(0);
        }
        reply.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(reply.status(), bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      });
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  static final String OK_ITEM = "{\"item\":{\"item_id\":\"item_1\",\"institution_id\":\"ins_1\",\"institution_name\":\"First\",\"status\":\"healthy\","
      + "\"connector\":\"sandbox\",\"error\":null,\"consented_products\":[\"transactions\"],\"last_successful_sync\":null,"
      + "\"created_at\":\"2026-01-01T00:00:00Z\",\"transactions_update_status\":\"historical_update_complete\",\"some_future_field\":1}}";
  static final Reply SERVER_ERROR = new Reply(500, Map.of(), "{\"error\":{\"type\":\"api_error\",\"code\":\"internal_error\",\"message\":\"boom\",\"request_id\":\"req_500\"}}");

  static Reply rateLimited(String retryAfter) {
    Map<String, String> headers = retryAfter == null ? Map.of("X-Request-Id", "req_rl") : Map.of("X-Request-Id", "req_rl", "Retry-After", retryAfter);
    return new Reply(429, headers, "{\"error\":{\"type\":\"rate_limit_error\",\"code\":\"rate_limit_exceeded\",\"message\":\"slow down\",\"request_id\":\"req_rl\"}}");
  }

  static FincoreClient client(String url, List<Duration> waits, int maxRetries) {
    return FincoreClient.builder("fc_sk_test_abcdefghijklmnop").baseUrl(url).maxRetries(maxRetries).sleeper(waits::add).build();
  }

  static FincoreException expectError(Body body) throws Exception {
    try {
      body.run();
    } catch (FincoreException e) {
      return e;
    }
    throw new AssertionError("expected a FincoreException");
  }

  public static void main(String[] args) throws Exception {
    transportTests();
    vectorTests();
    jsonTests();
    System.out.println(passed + " passed, " + failed + " failed");
    System.exit(failed == 0 && passed > 0 ? 0 : 1);
  }

  static void transportTests() {
    test("sends the bearer key and JSON, decodes tolerantly", () -> {
      try (Stub stub = new Stub(new Reply(200, Map.of(), OK_ITEM))) {
        ItemsGetResponse res = client(stub.url(), new ArrayList<>(), 2).items.get(new AccessTokenRequest().setAccessToken("fc_at_x"));
        check(res.getItem().getItemId().equals("item_1"), "item id");
        check("historical_update_complete".equals(res.getItem().getTransactionsUpdateStatus()), "status");
        check(res.getItem().getError() == null, "error null");
        check(stub.auth.get(0).equals("Bearer fc_sk_test_abcdefghijklmnop"), "auth " + stub.auth);
        check(stub.paths.get(0).equals("POST /v1/items/get"), "path " + stub.paths);
        check(stub.bodies.get(0).equals("{\"access_token\":\"fc_at_x\"}"), "body " + stub.bodies);
      }
    });
    test("optional request fields stay out of the body", () -> {
      try (Stub stub = new Stub(new Reply(200, Map.of(), "{\"added\":[],\"modified\":[],\"removed\":[],\"next_cursor\":\"c\",\"has_more\":false,\"transactions_update_status\":\"not_ready\"}"))) {
        FincoreClient c = client(stub.url(), new ArrayList<>(), 2);
        c.transactions.sync(new TransactionsSyncRequest().setAccessToken("fc_at_x"));
        c.transactions.sync(new TransactionsSyncRequest().setAccessToken("fc_at_x").setCount(500L));
        check(stub.bodies.get(0).equals("{\"access_token\":\"fc_at_x\"}"), "body " + stub.bodies.get(0));
        check(stub.bodies.get(1).equals("{\"access_token\":\"fc_at_x\",\"count\":500}"), "body " + stub.bodies.get(1));
      }
    });
    test("an optional body may be left out", () -> {
      try (Stub stub = new Stub(new Reply(200, Map.of(), "{\"categories\":[]}"))) {
        client(stub.url(), new ArrayList<>(), 2).products.categoriesGet();
        check(stub.bodies.get(0).equals("{}"), "body " + stub.bodies.get(0));
      }
    });
    test("429 is retried honouring Retry-After, even on an unsafe call", () -> {
      try (Stub stub = new Stub(rateLimited("3"), new Reply(200, Map.of(), "{\"access_token\":\"fc_at_1\",\"item_id\":\"item_1\",\"rotated\":false}"))) {
        List<Duration> waits = new ArrayList<>();
        client(stub.url(), waits, 2).link.tokenExchange(new LinkTokenExchangeRequest().setPublicToken("public-sandbox-x"));
        check(stub.bodies.size() == 2, "attempts " + stub.bodies.size());
        check(waits.equals(List.of(Duration.ofSeconds(3))), "waits " + waits);
      }
    });
    test("429 without Retry-After backs off exponentially, then gives up", () -> {
      try (Stub stub = new Stub(rateLimited(null))) {
        List<Duration> waits = new ArrayList<>();
        FincoreException e = expectError(() -> client(stub.url(), waits, 2).items.get(new AccessTokenRequest().setAccessToken("fc_at_x")));
        check(e.getStatus() == 429 && e.getType().equals("rate_limit_error") && e.getCode().equals("rate_limit_exceeded"), "error " + e);
        check(stub.bodies.size() == 3, "attempts " + stub.bodies.size());
        check(waits.equals(List.of(Duration.ofMillis(500), Duration.ofSeconds(1))), "waits " + waits);
      }
    });
    for (String code : List.of("monthly_api_quota_exceeded", "monthly_ai_quota_exceeded")) {
      test("a " + code + " 429 is never retried and keeps Retry-After", () -> {
        Reply quota = new Reply(429, Map.of("Retry-After", "3"), "{\"error\":{\"type\":\"rate_limit_error\",\"code\":\"" + code + "\",\"message\":\"quota\",\"request_id\":\"req_q\"}}");
        try (Stub stub = new Stub(quota, new Reply(200, Map.of(), OK_ITEM))) {
          List<Duration> waits = new ArrayList<>();
          FincoreException e = expectError(() -> client(stub.url(), waits, 2).items.get(new AccessTokenRequest().setAccessToken("fc_at_x")));
          check(e.getCode().equals(code) && Duration.ofSeconds(3).equals(e.getRetryAfter()), "error " + e + " retryAfter " + e.getRetryAfter());
          check(stub.bodies.size() == 1 && waits.isEmpty(), "attempts " + stub.bodies.size() + " waits " + waits);
        }
      });
    }
    test("a Retry-After over 60 s is thrown at once, keeping its value", () -> {
      try (Stub stub = new Stub(rateLimited("1209600"), new Reply(200, Map.of(), OK_ITEM))) {
        List<Duration> waits = new ArrayList<>();
        FincoreException e = expectError(() -> client(stub.url(), waits, 2).items.get(new AccessTokenRequest().setAccessToken("fc_at_x")));
        check(e.getCode().equals("rate_limit_exceeded") && Duration.ofSeconds(1209600).equals(e.getRetryAfter()), "error " + e + " retryAfter " + e.getRetryAfter());
        check(stub.bodies.size() == 1 && waits.isEmpty(), "attempts " + stub.bodies.size() + " waits " + waits);
      }
    });
    test("a 5xx is retried on a safe call", () -> {
      try (Stub stub = new Stub(SERVER_ERROR, SERVER_ERROR, new Reply(200, Map.of(), OK_ITEM))) {
        List<Duration> waits = new ArrayList<>();
        client(stub.url(), waits, 2).items.get(new AccessTokenRequest().setAccessToken("fc_at_x"));
        check(stub.bodies.size() == 3 && waits.size() == 2, "attempts " + stub.bodies.size());
      }
    });
    test("a 5xx is not retried on an unsafe call", () -> {
      try (Stub stub = new Stub(SERVER_ERROR, new Reply(200, Map.of(), "{}"))) {
        List<Duration> waits = new ArrayList<>();
        FincoreException e = expectError(() -> client(stub.url(), waits, 2).link.tokenExchange(new LinkTokenExchangeRequest().setPublicToken("p")));
        check(e.getStatus() == 500 && e.getCode().equals("internal_error") && "req_500".equals(e.getRequestId()), "error " + e);
        check(stub.bodies.size() == 1 && waits.isEmpty(), "retried an unsafe call: " + stub.bodies.size());
      }
    });
    test("maxRetries 0 turns retries off", () -> {
      try (Stub stub = new Stub(SERVER_ERROR)) {
        expectError(() -> client(stub.url(), new ArrayList<>(), 0).items.get(new AccessTokenRequest().setAccessToken("fc_at_x")));
        check(stub.bodies.size() == 1, "attempts " + stub.bodies.size());
      }
    });
    test("error mapping: API error body, and a body that is not one", () -> {
      try (Stub stub = new Stub(
          new Reply(400, Map.of("X-Request-Id", "req_h"), "{\"error\":{\"type\":\"invalid_request\",\"code\":\"invalid_field\",\"message\":\"bad access_token\",\"request_id\":\"req_b\"}}"),
          new Reply(502, Map.of("X-Request-Id", "req_gw"), "<html>bad gateway</html>"))) {
        FincoreClient c = client(stub.url(), new ArrayList<>(), 0);
        FincoreException e = expectError(() -> c.items.get(new AccessTokenRequest().setAccessToken("x")));
        check(e.getStatus() == 400 && e.getType().equals("invalid_request") && e.getCode().equals("invalid_field"), "error " + e);
        check(e.getMessage().equals("bad access_token") && e.getRequestId().equals("req_b"), "error " + e);
        FincoreException gateway = expectError(() -> c.items.get(new AccessTokenRequest().setAccessToken("x")));
        check(gateway.getStatus() == 502 && gateway.getType().equals("api_error") && "req_gw".equals(gateway.getRequestId()), "error " + gateway);
        check(gateway.getMessage().contains("bad gateway"), "message " + gateway.getMessage());
      }
    });
    test("a network error is retried only on a safe call", () -> {
      String url;
      try (Stub stub = new Stub(new Reply(200, Map.of(), "{}"))) {
        url = stub.url();
      }
      List<Duration> waits = new ArrayList<>();
      FincoreException e = expectError(() -> client(url, waits, 2).items.get(new AccessTokenRequest().setAccessToken("fc_at_x")));
      check(e.getStatus() == 0 && e.getType().equals("connection_error") && waits.size() == 2, "safe: " + e + " " + waits);
      waits.clear();
      FincoreException unsafe = expectError(() -> client(url, waits, 2).link.tokenExchange(new LinkTokenExchangeRequest().setPublicToken("p")));
      check(unsafe.getType().equals("connection_error") && waits.isEmpty(), "unsafe: " + unsafe + " " + waits);
    });
    test("unknown keys of open models are kept", () -> {
      Map<String, Object> json = Json.asObject(Json.parse(OK_ITEM));
      ItemsGetResponse res = ItemsGetResponse.fromJson(json);
      check(res.getItem().getConsentedProducts().equals(List.of("transactions")), "products");
      check(Transport.parseRetryAfter("1.5").equals(Duration.ofMillis(1500)) && Transport.parseRetryAfter("soon") == null, "retry-after parsing");
    });
  }

  static double vectorNumber(Object value) {
    if (value instanceof Number) return ((Number) value).doubleValue();
    switch ((String) value) {
      case "NaN": return Double.NaN;
      case "Infinity": return Double.POSITIVE_INFINITY;
      case "-Infinity": return Double.NEGATIVE_INFINITY;
      default: throw new IllegalArgumentException("unknown number " + value);
    }
  }

  static void vectorTests() throws IOException {
    String path = System.getenv().getOrDefault("FC_WEBHOOK_VECTORS", "../webhook-vectors.json");
    Map<String, Object> file = Json.asObject(Json.parse(Files.readString(Path.of(path))));
    List<Object> vectors = Json.asList(file.get("vectors"), v -> v);
    check(!vectors.isEmpty(), "no vectors");
    for (Object raw : vectors) {
      Map<String, Object> v = Json.asObject(raw);
      test("vector: " + v.get("name"), () -> {
        Map<String, Object> expected = Json.asObject(v.get("expected"));
        List<String> secrets = Json.asList(v.get("secrets"), Json::asString);
        byte[] body = Json.asString(v.get("body")).getBytes(StandardCharsets.UTF_8);
        String signature = (String) v.get("signature");
        String timestamp = (String) v.get("timestamp");
        double tolerance = vectorNumber(v.get("tolerance_seconds"));
        double now = vectorNumber(v.get("now"));
        try {
          WebhookEvent event = WebhookVerifier.verify(body, signature, timestamp, secrets, tolerance, now);
          check(Boolean.TRUE.equals(expected.get("ok")) && event.type().equals(expected.get("event_type")), "verified, expected " + Json.stringify(expected));
        } catch (WebhookVerificationException e) {
          check(Boolean.FALSE.equals(expected.get("ok")) && e.getReason().equals(expected.get("reason")), "rejected " + e.getReason() + ", expected " + Json.stringify(expected));
        } catch (IllegalArgumentException e) {
          check("invalid_argument".equals(expected.get("error")), "invalid argument, expected " + Json.stringify(expected));
        }
      });
    }
  }

  static void jsonTests() {
    test("json round trip and strictness", () -> {
      Object parsed = Json.parse(" {\"a\":[1,2.5,-3e2,true,null,\"\\u00e9\\n\"],\"b\":{}} ");
      check(Json.stringify(parsed).equals("{\"a\":[1,2.5,-300,true,null,\"é\\n\"],\"b\":{}}"), Json.stringify(parsed));
      for (String bad : List.of("", "{", "[1,]", "{\"a\":1,}", "01", "1.", "\"\t\"", "nul", "{} x", "'a'")) {
        try {
          Json.parse(bad);
          throw new AssertionError("accepted " + bad);
        } catch (Json.JsonException expected) {
          // rejected, as it must be
        }
      }
    });
  }
}
