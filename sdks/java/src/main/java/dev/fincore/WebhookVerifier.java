package dev.fincore;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies webhook deliveries: any {@code v1=} entry of FC-Signature under any of the secrets you
 * hold (HMAC-SHA256, constant-time comparison), then FC-Timestamp within the window in both
 * directions, then the body.
 *
 * <pre>{@code
 * WebhookEvent event = WebhookVerifier.verify(rawBody, signatureHeader, timestampHeader, List.of(secret));
 * }</pre>
 */
public final class WebhookVerifier {
  public static final String SIGNATURE_HEADER = "FC-Signature";
  public static final String TIMESTAMP_HEADER = "FC-Timestamp";
  public static final double DEFAULT_TOLERANCE_SECONDS = 300;

  private WebhookVerifier() {}

  /** Verifies with the default window (300 s) against the real clock. */
  public static WebhookEvent verify(byte[] rawBody, String signature, String timestamp, List<String> secrets) throws WebhookVerificationException {
    return verify(rawBody, signature, timestamp, secrets, DEFAULT_TOLERANCE_SECONDS, System.currentTimeMillis() / 1000.0);
  }

  /**
   * Verifies one delivery.
   *
   * @param rawBody the body exactly as received (never re-encoded JSON)
   * @param signature the FC-Signature header (several copies joined with ","), null when absent
   * @param timestamp the FC-Timestamp header, null when absent
   * @param secrets the signing secrets you hold (during a rotation, the new and the previous one)
   * @param toleranceSeconds the allowed clock distance either way: finite, 0 or more
   * @param nowSeconds the receiver's clock in Unix seconds: finite
   * @throws WebhookVerificationException for a delivery to reject
   * @throws IllegalArgumentException for a programming error: no secret, a non-finite or negative tolerance, a non-finite clock
   */
  public static WebhookEvent verify(byte[] rawBody, String signature, String timestamp, List<String> secrets, double toleranceSeconds, double nowSeconds)
      throws WebhookVerificationException {
    List<String> usable = new ArrayList<>();
    if (secrets != null) for (String s : secrets) if (s != null && !s.isEmpty()) usable.add(s);
    if (usable.isEmpty()) throw new IllegalArgumentException("verify needs at least one non-empty secret");
    // NaN or Infinity would make every window comparison false, i.e. accept any timestamp.
    if (!Double.isFinite(toleranceSeconds) || toleranceSeconds < 0) throw new IllegalArgumentException("toleranceSeconds must be a finite number of seconds, 0 or more");
    if (!Double.isFinite(nowSeconds)) throw new IllegalArgumentException("nowSeconds must be a finite number");

    String signatureHeader = signature == null ? "" : signature.strip();
    if (signatureHeader.isEmpty()) throw new WebhookVerificationException("missing_signature");
    String timestampHeader = timestamp == null ? "" : timestamp.strip();
    if (timestampHeader.isEmpty()) throw new WebhookVerificationException("missing_timestamp");

    // A repeated FC-Timestamp header is acceptable only when every copy is the same value.
    Set<String> stamps = new LinkedHashSet<>();
    for (String part : timestampHeader.split(",", -1)) stamps.add(part.strip());
    String stamp = stamps.iterator().next();
    if (stamps.size() != 1 || !stamp.matches("[0-9]{1,15}")) throw new WebhookVerificationException("malformed_timestamp");

    List<byte[]> given = parseSignatures(signatureHeader);
    if (given == null) throw new WebhookVerificationException("malformed_signature");

    boolean matched = false;
    for (String secret : usable) {
      byte[] expected = hmac(secret, stamp, rawBody);
      // Every pair is compared (no early exit) so timing says nothing about which entry matched.
      for (byte[] candidate : given) if (MessageDigest.isEqual(candidate, expected)) matched = true;
    }
    if (!matched) throw new WebhookVerificationException("signature_mismatch");

    if (Math.abs(nowSeconds - Double.parseDouble(stamp)) > toleranceSeconds) throw new WebhookVerificationException("timestamp_outside_window");

    WebhookEvent event = parseEvent(rawBody);
    if (event == null) throw new WebhookVerificationException("invalid_body");
    return event;
  }

  private static byte[] hmac(String secret, String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(body);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** The v1 signatures; null when the header is not a list of scheme=value or has no v1 entry. */
  private static List<byte[]> parseSignatures(String header) {
    List<byte[]> found = new ArrayList<>();
    for (String part : header.split(",", -1)) {
      String entry = part.strip();
      int eq = entry.indexOf('=');
      if (eq <= 0) return null;
      if (!entry.substring(0, eq).equals("v1")) continue; // other schemes are for other verifiers
      String value = entry.substring(eq + 1);
      if (!value.matches("[0-9a-fA-F]{64}")) return null;
      byte[] bytes = new byte[32];
      for (int i = 0; i < 32; i++) bytes[i] = (byte) Integer.parseInt(value.substring(2 * i, 2 * i + 2), 16);
      found.add(bytes);
    }
    return found.isEmpty() ? null : found;
  }

  private static WebhookEvent parseEvent(byte[] rawBody) {
    Object parsed;
    try {
      parsed = Json.parse(new String(rawBody, StandardCharsets.UTF_8));
    } catch (Json.JsonException e) {
      return null;
    }
    if (!(parsed instanceof Map)) return null;
    Map<String, Object> e = Json.asObject(parsed);
    Object id = e.get("id");
    Object type = e.get("type");
    Object created = e.get("created");
    Object data = e.get("data");
    if (!(id instanceof String) || ((String) id).isEmpty() || !(type instanceof String) || ((String) type).isEmpty()) return null;
    if (!(created instanceof Number) || !Double.isFinite(((Number) created).doubleValue())) return null;
    if (!(data instanceof Map)) return null;
    return new WebhookEvent((String) id, (String) type, ((Number) created).doubleValue(), Json.asObject(data));
  }
}
