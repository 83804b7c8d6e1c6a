package dev.fincore.kotlin

import java.security.MessageDigest
import javax.crypto.Mac
import javax.crypto.spec.SecretKeySpec

/** A verified webhook delivery. Deliveries may repeat: deduplicate on [id]. */
data class WebhookEvent(val id: String, val type: String, val created: Double, val data: Map<String, Any?>)

/** Why a delivery was rejected, in the order the checks run. */
enum class WebhookFailure(val reason: String) {
    MISSING_SIGNATURE("missing_signature"),
    MISSING_TIMESTAMP("missing_timestamp"),
    MALFORMED_TIMESTAMP("malformed_timestamp"),
    MALFORMED_SIGNATURE("malformed_signature"),
    SIGNATURE_MISMATCH("signature_mismatch"),
    TIMESTAMP_OUTSIDE_WINDOW("timestamp_outside_window"),
    INVALID_BODY("invalid_body")
}

/** A delivery that must be rejected (answer it with a 400). */
class WebhookVerificationException(val failure: WebhookFailure) : Exception("webhook rejected: ${failure.reason}") {
    val reason: String get() = failure.reason
}

/**
 * Verifies webhook deliveries: any `v1=` entry of FC-Signature under any of the secrets you hold
 * (HMAC-SHA256, constant-time comparison), then FC-Timestamp within the window in both directions,
 * then the body.
 */
object Webhooks {
    const val SIGNATURE_HEADER = "FC-Signature"
    const val TIMESTAMP_HEADER = "FC-Timestamp"
    const val DEFAULT_TOLERANCE_SECONDS = 300.0

    private val TIMESTAMP = Regex("[0-9]{1,15}")
    private val HEX_SIGNATURE = Regex("[0-9a-fA-F]{64}")

    /**
     * @param rawBody the body exactly as received (never re-encoded JSON)
     * @param signature the FC-Signature header (several copies joined with ","), null when absent
     * @param timestamp the FC-Timestamp header, null when absent
     * @param secrets the signing secrets you hold (during a rotation, the new and the previous one)
     * @param toleranceSeconds the allowed clock distance either way: finite, 0 or more
     * @param nowSeconds the receiver's clock in Unix seconds
     * @throws WebhookVerificationException for a delivery to reject
     * @throws IllegalArgumentException for a programming error: no secret, a non-finite or negative tolerance, a non-finite clock
     */
    fun verify(
        rawBody: ByteArray,
        signature: String?,
        timestamp: String?,
        secrets: List<String>,
        toleranceSeconds: Double = DEFAULT_TOLERANCE_SECONDS,
        nowSeconds: Double = System.currentTimeMillis() / 1000.0
    ): WebhookEvent {
        val usable = secrets.filter { it.isNotEmpty() }
        require(usable.isNotEmpty()) { "verify needs at least one non-empty secret" }
        // NaN or Infinity would make every window comparison false, i.e. accept any timestamp.
        require(toleranceSeconds.isFinite() && toleranceSeconds >= 0) { "toleranceSeconds must be a finite number of seconds, 0 or more" }
        require(nowSeconds.isFinite()) { "nowSeconds must be a finite number" }

        val signatureHeader = signature?.trim().orEmpty()
        if (signatureHeader.isEmpty()) throw WebhookVerificationException(WebhookFailure.MISSING_SIGNATURE)
        val timestampHeader = timestamp?.trim().orEmpty()
        if (timestampHeader.isEmpty()) throw WebhookVerificationException(WebhookFailure.MISSING_TIMESTAMP)

        // A repeated FC-Timestamp header is acceptable only when every copy is the same value.
        val stamps = timestampHeader.split(",").map { it.trim() }.toSet()
        val stamp = stamps.first()
        if (stamps.size != 1 || !TIMESTAMP.matches(stamp)) throw WebhookVerificationException(WebhookFailure.MALFORMED_TIMESTAMP)

        val given = parseSignatures(signatureHeader) ?: throw WebhookVerificationException(WebhookFailure.MALFORMED_SIGNATURE)
        var matched = false
        for (secret in usable) {
            val expected = hmac(secret, stamp, rawBody)
            // Every pair is compared (no early exit) so timing says nothing about which entry matched.
            for (candidate in given) if (MessageDigest.isEqual(candidate, expected)) matched = true
        }
        if (!matched) throw WebhookVerificationException(WebhookFailure.SIGNATURE_MISMATCH)

        if (Math.abs(nowSeconds - stamp.toDouble()) > toleranceSeconds) throw WebhookVerificationException(WebhookFailure.TIMESTAMP_OUTSIDE_WINDOW)

        return parseEvent(rawBody) ?: throw WebhookVerificationException(WebhookFailure.INVALID_BODY)
    }

    private fun hmac(secret: String, timestamp: String, body: ByteArray): ByteArray {
        val mac = Mac.getInstance("HmacSHA256")
        mac.init(SecretKeySpec(secret.toByteArray(Charsets.UTF_8), "HmacSHA256"))
        mac.update("$timestamp.".toByteArray(Charsets.UTF_8))
        return mac.doFinal(body)
    }

    /** The v1 signatures; null when the header is not a list of scheme=value or has no v1 entry. */
    private fun parseSignatures(header: String): List<ByteArray>? {
        val found = mutableListOf<ByteArray>()
        for (part in header.split(",")) {
            val entry = part.trim()
            val eq = entry.indexOf('=')
            if (eq <= 0) return null
            if (entry.substring(0, eq) != "v1") continue // other schemes are for other verifiers
            val value = entry.substring(eq + 1)
            if (!HEX_SIGNATURE.matches(value)) return null
            found.add(ByteArray(32) { i -> value.substring(2 * i, 2 * i + 2).toInt(16).toByte() })
        }
        return if (found.isEmpty()) null else found
    }

    private fun parseEvent(rawBody: ByteArray): WebhookEvent? {
        val parsed = try {
            Json.parse(String(rawBody, Charsets.UTF_8))
        } catch (e: JsonException) {
            return null
        }
        val event = parsed as? Map<*, *> ?: return null
        val id = event["id"] as? String
        val type = event["type"] as? String
        val created = event["created"] as? Number
        val data = event["data"] as? Map<*, *>
        if (id.isNullOrEmpty() || type.isNullOrEmpty() || created == null || !created.toDouble().isFinite() || data == null) return null
        return WebhookEvent(id, type, created.toDouble(), Json.obj(data))
    }
}
