package dev.fincore;

import dev.fincore.model.AccessTokenRequest;
import dev.fincore.model.AccountsGetRequest;
import dev.fincore.model.LinkTokenExchangeResponse;
import dev.fincore.model.LinkTokenExchangeRequest;
import dev.fincore.model.SandboxPublicTokenCreateRequest;
import dev.fincore.model.TransactionsSyncRequest;
import dev.fincore.model.TransactionsSyncResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The smoke test against a running service (bin/test-sdks.ts gives it FC_BASE_URL, FC_API_KEY and a
 * captured delivery): sandbox token -> exchange -> wait for the history -> accounts -> full sync ->
 * one error case -> verify the delivery. Prints one line {@code SMOKE {json}}.
 */
public final class Smoke {
  public static void main(String[] args) throws Exception {
    FincoreClient client = FincoreClient.builder(System.getenv("FC_API_KEY")).baseUrl(System.getenv("FC_BASE_URL")).build();

    String publicToken = client.sandbox.publicTokenCreate(
        new SandboxPublicTokenCreateRequest().setInstitutionId("ins_sandbox_first_bank").setProducts(List.of("transactions"))).getPublicToken();
    LinkTokenExchangeResponse item = client.link.tokenExchange(new LinkTokenExchangeRequest().setPublicToken(publicToken));
    AccessTokenRequest token = new AccessTokenRequest().setAccessToken(item.getAccessToken());

    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!"historical_update_complete".equals(client.items.get(token).getItem().getTransactionsUpdateStatus())) {
      if (System.nanoTime() > deadline) throw new IllegalStateException("the history did not finish loading within 60 s");
      Thread.sleep(200);
    }

    int accounts = client.accounts.get(new AccountsGetRequest().setAccessToken(item.getAccessToken())).getAccounts().size();

    int added = 0;
    int pages = 0;
    String cursor = null;
    while (true) {
      TransactionsSyncResponse page = client.transactions.sync(new TransactionsSyncRequest().setAccessToken(item.getAccessToken()).setCursor(cursor).setCount(500L));
      pages++;
      added += page.getAdded().size();
      cursor = page.getNextCursor();
      if (!page.getHasMore()) break;
    }

    FincoreException error = null;
    try {
      client.items.get(new AccessTokenRequest().setAccessToken("access-sandbox-00000000-0000-0000-0000-000000000000"));
    } catch (FincoreException e) {
      error = e;
    }
    if (error == null) throw new IllegalStateException("the bad access token did not raise FincoreException");

    byte[] body = Files.readAllBytes(Path.of(System.getenv("FC_WEBHOOK_BODY_FILE")));
    WebhookEvent event = WebhookVerifier.verify(body, System.getenv("FC_WEBHOOK_SIGNATURE"), System.getenv("FC_WEBHOOK_TIMESTAMP"), List.of(System.getenv("FC_WEBHOOK_SECRET")));

    Map<String, Object> errorSummary = new LinkedHashMap<>();
    errorSummary.put("status", (long) error.getStatus());
    errorSummary.put("type", error.getType());
    errorSummary.put("code", error.getCode());
    errorSummary.put("request_id_present", error.getRequestId() != null && !error.getRequestId().isEmpty());
    errorSummary.put("documentation_url", error.getDocumentationUrl());
    errorSummary.put("display_message", error.getDisplayMessage());
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("language", "java");
    summary.put("accounts", (long) accounts);
    summary.put("added", (long) added);
    summary.put("pages", (long) pages);
    summary.put("error", errorSummary);
    summary.put("webhook_type", event.type());
    System.out.println("SMOKE " + Json.stringify(summary));
  }
}
