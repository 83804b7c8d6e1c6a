package dev.fincore;

import java.time.Duration;

/**
 * The one error every call throws: an answer from the API that was not a success, or a request that
 * never got one (status 0, type {@code connection_error}).
 */
public class FincoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String type;
  private final String code;
  private final String requestId;
  private final Duration retryAfter;
  private final String documentationUrl;
  private final String displayMessage;

  public FincoreException(int status, String type, String code, String message, String requestId, Duration retryAfter, Throwable cause) {
    this(status, type, code, message, requestId, retryAfter, cause, null, null);
  }

  public FincoreException(
      int status, String type, String code, String message, String requestId, Duration retryAfter, Throwable cause, String documentationUrl, String displayMessage) {
    super(message, cause);
    this.status = status;
    this.type = type;
    this.code = code;
    this.requestId = requestId;
    this.retryAfter = retryAfter;
    this.documentationUrl = documentationUrl;
    this.displayMessage = displayMessage;
  }

  /** The HTTP status; 0 when no answer arrived. */
  public int getStatus() {
    return status;
  }

  /** The error's family: invalid_request, authentication_error, rate_limit_error, api_error, connection_error, ... */
  public String getType() {
    return type;
  }

  /** The precise reason: invalid_access_token, rate_limit_exceeded, monthly_api_quota_exceeded, timeout, ... */
  public String getCode() {
    return code;
  }

  /** The request's id in Fincore's logs; null when the API never answered. */
  public String getRequestId() {
    return requestId;
  }

  /** The wait the API asked for (Retry-After), or null. */
  public Duration getRetryAfter() {
    return retryAfter;
  }

  /** Where the code is explained ({base_url}/docs/errors#&lt;code&gt;); null without an error body. */
  public String getDocumentationUrl() {
    return documentationUrl;
  }

  /** A sentence safe to show your end user; null when the error is the integration's to fix. */
  public String getDisplayMessage() {
    return displayMessage;
  }

  @Override
  public String toString() {
    return "FincoreException{status=" + status + ", type=" + type + ", code=" + code + ", message=" + getMessage() + ", requestId=" + requestId + "}";
  }
}
