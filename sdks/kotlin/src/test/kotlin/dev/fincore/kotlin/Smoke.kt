// The smoke test against a running service (bin/test-sdks.ts gives it FC_BASE_URL, FC_API_KEY and a
// captured delivery): sandbox token -> exchange -> wait for the history -> accounts -> full sync ->
// one error case -> verify the delivery. Prints one line `SMOKE {json}`.
package dev.fincore.kotlin

import java.io.File

fun main() {
    val client = FincoreClient(System.getenv("FC_API_KEY"), baseUrl = System.getenv("FC_BASE_URL"))

    val publicToken = client.sandbox.publicTokenCreate(
        SandboxPublicTokenCreateRequest(institutionId = "ins_sandbox_first_bank", products = listOf("transactions"))
    ).publicToken
    val item = client.link.tokenExchange(LinkTokenExchangeRequest(publicToken = publicToken))
    val token = AccessTokenRequest(accessToken = item.accessToken)

    val deadline = System.nanoTime() + 60_000_000_000L
    while (client.items.get(token).item.transactionsUpdateStatus != "historical_update_complete") {
        check(System.nanoTime() < deadline) { "the history did not finish loading within 60 s" }
        Thread.sleep(200)
    }

    val accounts = client.accounts.get(AccountsGetRequest(accessToken = item.accessToken)).accounts.size

    var added = 0
    var pages = 0
    var cursor: String? = null
    do {
        val page = client.transactions.sync(TransactionsSyncRequest(accessToken = item.accessToken, cursor = cursor, count = 500))
        pages++
        added += page.added.size
        cursor = page.nextCursor
    } while (page.hasMore)

    val error = try {
        client.items.get(AccessTokenRequest(accessToken = "access-sandbox-00000000-0000-0000-0000-000000000000"))
        null
    } catch (e: FincoreException) {
        e
    } ?: throw IllegalStateException("the bad access token did not raise FincoreException")

    val event = Webhooks.verify(
        File(System.getenv("FC_WEBHOOK_BODY_FILE")).readBytes(),
        System.getenv("FC_WEBHOOK_SIGNATURE"), System.getenv("FC_WEBHOOK_TIMESTAMP"),
        listOf(System.getenv("FC_WEBHOOK_SECRET"))
    )

    val summary = linkedMapOf(
        "language" to "kotlin",
        "accounts" to accounts.toLong(),
        "added" to added.toLong(),
        "pages" to pages.toLong(),
        "error" to linkedMapOf(
            "status" to error.status.toLong(), "type" to error.type, "code" to error.code,
            "request_id_present" to !error.requestId.isNullOrEmpty(),
            "documentation_url" to error.documentationUrl,
            "display_message" to error.displayMessage
        ),
        "webhook_type" to event.type
    )
    println("SMOKE " + Json.stringify(summary))
}
