// The unit tests, run with plain java (JUnit cannot be fetched offline): a tiny runner that counts
// passes and failures and exits non-zero on any failure.
package dev.fincore.kotlin

import com.sun.net.httpserver.HttpServer
import java.io.Closeable
import java.io.File
import java.net.InetSocketAddress
import java.time.Duration
import kotlin.system.exitProcess

private var passed = 0
private var failed = 0

private fun test(name: String, body: () -> Unit) {
    try {
        body()
        passed++
    } catch (t: Throwable) {
        failed++
        println("FAIL $name: $t")
    }
}

private fun check(condition: Boolean, message: () -> String) {
    if (!condition) throw AssertionError(message())
}

private data class Reply(val status: Int, val body: String, val headers: Map<String, String> = emptyMap())

/** A local HTTP stub that answers with the scripted replies (the last one repeats) and records the requests. */
private class Stub(vararg replies: Reply) : Closeable {
    private val script = replies.toMutableList()
    val bodies = mutableListOf<String>()
    val auth = mutableListOf<String?>()
    val paths = mutableListOf<String>()
    private val server: HttpServer = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)

    init {
        server.createContext("/") { exchange ->
            val reply = synchronized(this) {
                bodies.add(String(exchange.requestBody.readBytes(), Charsets.UTF_8))
                auth.add(exchange.requestHeaders.getFirst("Authorization"))
                paths.add("${exchange.requestMethod} ${exchange.requestURI.path}")
                if (script.size > 1) script.removeAt(0) else script[0]
            }
            reply.headers.forEach { (k, v) -> exchange.responseHeaders.set(k, v) }
            exchange.responseHeaders.set("Content-Type", "application/json")
            val bytes = reply.body.toByteArray(Charsets.UTF_8)
            exchange.sendResponseHeaders(reply.status, bytes.size.toLong())
            exchange.responseBody.use { it.write(bytes) }
        }
        server.start()
    }

    val url: String get() = "http://127.0.0.1:${server.address.port}"

    override fun close() = server.stop(0)
}

private const val OK_ITEM = """{"item":{"item_id":"item_1","institution_id":"ins_1","institution_name":"First","status":"healthy","connector":"sandbox","error":null,"consented_products":["transactions"],"last_successful_sync":null,"created_at":"2026-01-01T00:00:00Z","transactions_update_status":"historical_update_complete","some_future_field":1}}"""
private val SERVER_ERROR = Reply(500, """{"error":{"type":"api_error","code":"internal_error","message":"boom","request_id":"req_500"}}""")

private fun rateLimited(retryAfter: String?) = Reply(
    429, """{"error":{"type":"rate_limit_error","code":"rate_limit_exceeded","message":"slow down","request_id":"req_rl"}}""",
    if (retryAfter == null) mapOf("X-Request-Id" to "req_rl") else mapOf("X-Request-Id" to "req_rl", "Retry-After" to retryAfter)
)

private fun client(url: String, waits: MutableList<Duration>, maxRetries: Int = 2) =
    FincoreClient("fc_sk_test_abcdefghijklmnop", baseUrl = url, maxRetries = maxRetries, sleeper = { waits.add(it) })

private fun expectError(body: () -> Unit): FincoreException {
    try {
        body()
    } catch (e: FincoreException) {
        return e
    }
    throw AssertionError("expected a FincoreException")
}

private fun transportTests() {
    test("sends the bearer key and JSON, decodes tolerantly") {
        Stub(Reply(200, OK_ITEM)).use { stub ->
            val res = client(stub.url, mutableListOf()).items.get(AccessTokenRequest(accessToken = "fc_at_x"))
            check(res.item.itemId == "item_1") { "item id" }
            check(res.item.transactionsUpdateStatus == "historical_update_complete") { "status" }
            check(res.item.error == null) { "error null" }
            check(stub.auth[0] == "Bearer fc_sk_test_abcdefghijklmnop") { "auth ${stub.auth}" }
            check(stub.paths[0] == "POST /v1/items/get") { "path ${stub.paths}" }
            check(stub.bodies[0] == """{"access_token":"fc_at_x"}""") { "body ${stub.bodies}" }
        }
    }
    test("optional request fields stay out of the body") {
        Stub(Reply(200, """{"added":[],"modified":[],"removed":[],"next_cursor":"c","has_more":false,"transactions_update_status":"not_ready"}""")).use { stub ->
            val c = client(stub.url, mutableListOf())
            c.transactions.sync(TransactionsSyncRequest(accessToken = "fc_at_x"))
            c.transactions.sync(TransactionsSyncRequest(accessToken = "fc_at_x", count = 500))
            check(stub.bodies[0] == """{"access_token":"fc_at_x"}""") { stub.bodies[0] }
            check(stub.bodies[1] == """{"access_token":"fc_at_x","count":500}""") { stub.bodies[1] }
        }
    }
    test("an optional body may be left out") {
        Stub(Reply(200, """{"categories":[]}""")).use { stub ->
            client(stub.url, mutableListOf()).products.categoriesGet()
            check(stub.bodies[0] == "{}") { stub.bodies[0] }
        }
    }
    test("429 is retried honouring Retry-After, even on an unsafe call") {
        Stub(rateLimited("3"), Reply(200, """{"access_token":"fc_at_1","item_id":"item_1","rotated":false}""")).use { stub ->
            val waits = mutableListOf<Duration>()
            client(stub.url, waits).link.tokenExchange(LinkTokenExchangeRequest(publicToken = "public-sandbox-x"))
            check(stub.bodies.size == 2) { "attempts ${stub.bodies.size}" }
            check(waits == listOf(Duration.ofSeconds(3))) { "waits $waits" }
        }
    }
    test("429 without Retry-After backs off exponentially, then gives up") {
        Stub(rateLimited(null)).use { stub ->
            val waits = mutableListOf<Duration>()
            val e = expectError { client(stub.url, waits).items.get(AccessTokenRequest(accessToken = "fc_at_x")) }
            check(e.status == 429 && e.type == "rate_limit_error" && e.code == "rate_limit_exceeded") { "error $e" }
            check(stub.bodies.size == 3) { "attempts ${stub.bodies.size}" }
            check(waits == listOf(Duration.ofMillis(500), Duration.ofSeconds(1))) { "waits $waits" }
        }
    }
    for (code in listOf("monthly_api_quota_exceeded", "monthly_ai_quota_exceeded")) {
        test("a $code 429 is never retried and keeps Retry-After") {
            val quota = Reply(429, """{"error":{"type":"rate_limit_error","code":"$code","message":"quota","request_id":"req_q"}}""", mapOf("Retry-After" to "3"))
            Stub(quota, Reply(200, OK_ITEM)).use { stub ->
                val waits = mutableListOf<Duration>()
                val e = expectError { client(stub.url, waits).items.get(AccessTokenRequest(accessToken = "fc_at_x")) }
                check(e.code == code && e.retryAfter == Duration.ofSeconds(3)) { "error $e retryAfter ${e.retryAfter}" }
                check(stub.bodies.size == 1 && waits.isEmpty()) { "attempts ${stub.bodies.size} waits $waits" }
            }
        }
    }
    test("a Retry-After over 60 s is thrown at once, keeping its value") {
        Stub(rateLimited("1209600"), Reply(200, OK_ITEM)).use { stub ->
            val waits = mutableListOf<Duration>()
            val e = expectError { client(stub.url, waits).items.get(AccessTokenRequest(accessToken = "fc_at_x")) }
            check(e.code == "rate_limit_exceeded" && e.retryAfter == Duration.ofSeconds(1209600)) { "error $e retryAfter ${e.retryAfter}" }
            check(stub.bodies.size == 1 && waits.isEmpty()) { "attempts ${stub.bodies.size} waits $waits" }
        }
    }
    test("a 5xx is retried on a safe call") {
        Stub(SERVER_ERROR, SERVER_ERROR, Reply(200, OK_ITEM)).use { stub ->
            val waits = mutableListOf<Duration>()
            client(stub.url, waits).items.get(AccessTokenRequest(accessToken = "fc_at_x"))
            check(stub.bodies.size == 3 && waits.size == 2) { "attempts ${stub.bodies.size}" }
        }
    }
    test("a 5xx is not retried on an unsafe call") {
        Stub(SERVER_ERROR, Reply(200, "{}")).use { stub ->
            val waits = mutableListOf<Duration>()
            val e = expectError { client(stub.url, waits).link.tokenExchange(LinkTokenExchangeRequest(publicToken = "p")) }
            check(e.status == 500 && e.code == "internal_error" && e.requestId == "req_500") { "error $e" }
            check(stub.bodies.size == 1 && waits.isEmpty()) { "retried an unsafe call: ${stub.bodies.size}" }
        }
    }
    test("maxRetries 0 turns retries off") {
        Stub(SERVER_ERROR).use { stub ->
            expectError { client(stub.url, mutableListOf(), maxRetries = 0).items.get(AccessTokenRequest(accessToken = "fc_at_x")) }
            check(stub.bodies.size == 1) { "attempts ${stub.bodies.size}" }
        }
    }
    test("error mapping: API error body, and a body that is not one") {
        Stub(
            Reply(400, """{"error":{"type":"invalid_request","code":"invalid_field","message":"bad access_token","request_id":"req_b"}}""", mapOf("X-Request-Id" to "req_h")),
            Reply(502, "<html>bad gateway</html>", mapOf("X-Request-Id" to "req_gw"))
        ).use { stub ->
            val c = client(stub.url, mutableListOf(), maxRetries = 0)
            val e = expectError { c.items.get(AccessTokenRequest(accessToken = "x")) }
            check(e.status == 400 && e.type == "invalid_request" && e.code == "invalid_field" && e.message == "bad access_token" && e.requestId == "req_b") { "error $e" }
            val gateway = expectError { c.items.get(AccessTokenRequest(accessToken = "x")) }
            check(gateway.status == 502 && gateway.type == "api_error" && gateway.requestId == "req_gw" && gateway.message!!.contains("bad gateway")) { "error $gateway" }
        }
    }
    test("a network error is retried only on a safe call") {
        val url = Stub(Reply(200, "{}")).use { it.url }
        val waits = mutableListOf<Duration>()
        val e = expectError { client(url, waits).items.get(AccessTokenRequest(accessToken = "fc_at_x")) }
        check(e.status == 0 && e.type == "connection_error" && waits.size == 2) { "safe: $e $waits" }
        waits.clear()
        val unsafe = expectError { client(url, waits).link.tokenExchange(LinkTokenExchangeRequest(publicToken = "p")) }
        check(unsafe.type == "connection_error" && waits.isEmpty()) { "unsafe: $unsafe $waits" }
    }
    test("models keep unknown keys and round-trip") {
        val res = ItemsGetResponse.fromJson(Json.parse(OK_ITEM))
        check(res.item.consentedProducts == listOf("transactions")) { "products" }
        check(ItemsGetResponse.fromJson(res.toJson()) == res) { "round trip" }
        check(Transport.parseRetryAfter("1.5") == Duration.ofMillis(1500) && Transport.parseRetryAfter("soon") == null) { "retry-after parsing" }
    }
}

private fun vectorNumber(value: Any?): Double = when (value) {
    is Number -> value.toDouble()
    "NaN" -> Double.NaN
    "Infinity" -> Double.POSITIVE_INFINITY
    "-Infinity" -> Double.NEGATIVE_INFINITY
    else -> throw IllegalArgumentException("unknown number $value")
}

private fun vectorTests() {
    val path = System.getenv("FC_WEBHOOK_VECTORS") ?: "../webhook-vectors.json"
    val vectors = Json.list(Json.obj(Json.parse(File(path).readText())).get("vectors")) { Json.obj(it) }
    check(vectors.isNotEmpty()) { "no vectors" }
    for (v in vectors) {
        test("vector: ${v["name"]}") {
            val expected = Json.obj(v["expected"])
            try {
                val event = Webhooks.verify(
                    Json.string(v["body"]).toByteArray(Charsets.UTF_8), v["signature"] as String?, v["timestamp"] as String?,
                    Json.list(v["secrets"]) { Json.string(it) }, vectorNumber(v["tolerance_seconds"]), vectorNumber(v["now"])
                )
                check(expected["ok"] == true && event.type == expected["event_type"]) { "verified, expected ${Json.stringify(expected)}" }
            } catch (e: WebhookVerificationException) {
                check(expected["ok"] == false && e.reason == expected["reason"]) { "rejected ${e.reason}, expected ${Json.stringify(expected)}" }
            } catch (e: IllegalArgumentException) {
                check(expected["error"] == "invalid_argument") { "invalid argument, expected ${Json.stringify(expected)}" }
            }
        }
    }
}

private fun jsonTests() {
    test("json round trip and strictness") {
        val parsed = Json.parse(""" {"a":[1,2.5,-3e2,true,null,"\u00e9\n"],"b":{}} """)
        check(Json.stringify(parsed) == """{"a":[1,2.5,-300,true,null,"é\n"],"b":{}}""") { Json.stringify(parsed) }
        for (bad in listOf("", "{", "[1,]", """{"a":1,}""", "01", "1.", "\"\t\"", "nul", "{} x", "'a'")) {
            try {
                Json.parse(bad)
                throw AssertionError("accepted $bad")
            } catch (expected: JsonException) {
                // rejected, as it must be
            }
        }
    }
}

fun main() {
    transportTests()
    vectorTests()
    jsonTests()
    println("$passed passed, $failed failed")
    exitProcess(if (failed == 0 && passed > 0) 0 else 1)
}
