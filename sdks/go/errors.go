package fincore

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Error is the one error type every call returns: an answer from the API that was not a success,
// or a request that never got an answer (Status 0, Type "connection_error").
type Error struct {
	// Status is the HTTP status (0 when no answer arrived).
	Status int
	// Type is the error's family (invalid_request, authentication, rate_limit, api_error, ...).
	Type string
	// Code is the precise reason (invalid_access_token, rate_limit_exceeded, monthly_api_quota_exceeded, ...).
	Code string
	// Message is written for the developer, not for end users.
	Message string
	// RequestID identifies the request in Fincore's logs ("" when the API never answered).
	RequestID string
	// DocumentationURL is where the code is explained ({base_url}/docs/errors#<code>); "" without an error body.
	DocumentationURL string
	// DisplayMessage is a sentence safe to show your end user; "" when the error is the integration's to fix.
	DisplayMessage string
	// RetryAfter is the wait the API asked for (Retry-After header), 0 when it gave none.
	RetryAfter time.Duration
	// Err is the underlying transport error when no answer arrived.
	Err error
}

func (e *Error) Error() string {
	if e.Status == 0 {
		return fmt.Sprintf("fincore: %s (%s): %s", e.Type, e.Code, e.Message)
	}
	if e.RequestID != "" {
		return fmt.Sprintf("fincore: %d %s (%s): %s [request %s]", e.Status, e.Type, e.Code, e.Message, e.RequestID)
	}
	return fmt.Sprintf("fincore: %d %s (%s): %s", e.Status, e.Type, e.Code, e.Message)
}

// Unwrap gives errors.Is/As access to the transport error behind a connection failure.
func (e *Error) Unwrap() error { return e.Err }

// errorFromResponse reads the API's error body ({"error": {type, code, message, request_id}}); an
// answer that is not that shape (a proxy's HTML page) still becomes an *Error with its status.
func errorFromResponse(status int, header http.Header, body []byte) *Error {
	e := &Error{Status: status, RequestID: header.Get("X-Request-Id"), RetryAfter: retryAfter(header)}
	var envelope struct {
		Error *struct {
			Type      string `json:"type"`
			Code      string `json:"code"`
			Message   string `json:"message"`
			RequestID string `json:"request_id"`
			// A null display_message decodes as "".
			DocumentationURL string `json:"documentation_url"`
			DisplayMessage   string `json:"display_message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &envelope) == nil && envelope.Error != nil {
		e.Type, e.Code, e.Message = envelope.Error.Type, envelope.Error.Code, envelope.Error.Message
		e.DocumentationURL, e.DisplayMessage = envelope.Error.DocumentationURL, envelope.Error.DisplayMessage
		if envelope.Error.RequestID != "" {
			e.RequestID = envelope.Error.RequestID
		}
		return e
	}
	e.Type, e.Code = "api_error", "unexpected_response"
	e.Message = fmt.Sprintf("HTTP %d with a body that is not a Fincore error: %.200s", status, strings.TrimSpace(string(body)))
	return e
}

// retryAfter reads Retry-After as whole or fractional seconds; dates and nonsense count as absent. A long
// wait (a monthly quota reset weeks away) is kept as given: the caller decides what to do with it.
func retryAfter(header http.Header) time.Duration {
	value := strings.TrimSpace(header.Get("Retry-After"))
	if value == "" {
		return 0
	}
	seconds, err := strconv.ParseFloat(value, 64)
	// Beyond ~290 years a time.Duration overflows; no real Retry-After gets near that.
	if err != nil || seconds < 0 || seconds > 1e9 || seconds != seconds {
		return 0
	}
	return time.Duration(seconds * float64(time.Second))
}
