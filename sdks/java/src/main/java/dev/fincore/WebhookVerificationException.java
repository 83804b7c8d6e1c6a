package dev.fincore;

/** A delivery that must be rejected (answer it with a 400); {@link #getReason()} says why. */
public class WebhookVerificationException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String reason;

  public WebhookVerificationException(String reason) {
    super("webhook rejected: " + reason);
    this.reason = reason;
  }

  /**
   * One of missing_signature, missing_timestamp, malformed_timestamp, malformed_signature,
   * signature_mismatch, timestamp_outside_window, invalid_body (checked in that order).
   */
  public String getReason() {
    return reason;
  }
}
