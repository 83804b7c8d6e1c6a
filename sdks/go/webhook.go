package fincore

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// Webhook header names and the default window (SPEC §6).
const (
	SignatureHeader         = "FC-Signature"
	TimestampHeader         = "FC-Timestamp"
	DefaultToleranceSeconds = 300
)

// The reasons a delivery is rejected, checked in this order.
const (
	ReasonMissingSignature       = "missing_signature"
	ReasonMissingTimestamp       = "missing_timestamp"
	ReasonMalformedTimestamp     = "malformed_timestamp"
	ReasonMalformedSignature     = "malformed_signature"
	ReasonSignatureMismatch      = "signature_mismatch"
	ReasonTimestampOutsideWindow = "timestamp_outside_window"
	ReasonInvalidBody            = "invalid_body"
)

// ErrInvalidArgument marks a programming error in the call (no secret, a tolerance or clock that is
// not a finite number) rather than a bad delivery; test it with errors.Is.
var ErrInvalidArgument = errors.New("fincore: invalid argument")

// WebhookVerificationError is returned for a delivery that must be rejected (answer it with a 400).
type WebhookVerificationError struct {
	Reason string
}

func (e *WebhookVerificationError) Error() string { return "fincore: webhook rejected: " + e.Reason }

// WebhookEvent is a verified delivery's body.
type WebhookEvent struct {
	ID      string         `json:"id"`
	Type    string         `json:"type"`
	Created float64        `json:"created"`
	Data    map[string]any `json:"data"`
}

// WebhookParams is one delivery to verify.
type WebhookParams struct {
	// RawBody is the request body exactly as received (never re-encoded JSON).
	RawBody []byte
	// Signature and Timestamp are the header values: strings.Join(r.Header.Values(fincore.SignatureHeader), ",").
	Signature string
	Timestamp string
	// Secrets are the signing secrets you hold (during a rotation, the new and the previous one).
	Secrets []string
	// ToleranceSeconds is the allowed clock distance either way; nil means 300.
	ToleranceSeconds *float64
	// NowSeconds is the receiver's clock in Unix seconds; nil means time.Now().
	NowSeconds *float64
}

// hexSignature: 64 hex digits (a SHA-256 HMAC).
func hexSignature(s string) bool { return len(s) == 64 && isHex(s) }

// timestampDigits: 1 to 15 ASCII digits (Unix seconds; no sign, no fraction).
func timestampDigits(s string) bool { return len(s) >= 1 && len(s) <= 15 && isDigits(s) }

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// VerifyWebhook checks a delivery's signature (any v1= entry under any of the secrets, compared in
// constant time), then its timestamp window (both directions), then parses its body. A rejected
// delivery gives a *WebhookVerificationError carrying the reason; a bad call gives an error that
// errors.Is(err, ErrInvalidArgument).
func VerifyWebhook(p WebhookParams) (*WebhookEvent, error) {
	var secrets []string
	for _, s := range p.Secrets {
		if s != "" {
			secrets = append(secrets, s)
		}
	}
	if len(secrets) == 0 {
		return nil, wrapInvalid("VerifyWebhook needs at least one non-empty secret")
	}
	tolerance := float64(DefaultToleranceSeconds)
	if p.ToleranceSeconds != nil {
		tolerance = *p.ToleranceSeconds
	}
	// NaN or Infinity would make every window comparison false, i.e. accept any timestamp.
	if math.IsNaN(tolerance) || math.IsInf(tolerance, 0) || tolerance < 0 {
		return nil, wrapInvalid("ToleranceSeconds must be a finite number of seconds, 0 or more")
	}
	now := float64(time.Now().UnixMilli()) / 1000
	if p.NowSeconds != nil {
		now = *p.NowSeconds
	}
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return nil, wrapInvalid("NowSeconds must be a finite number")
	}

	signatureHeader := strings.TrimSpace(p.Signature)
	if signatureHeader == "" {
		return nil, &WebhookVerificationError{ReasonMissingSignature}
	}
	timestampHeader := strings.TrimSpace(p.Timestamp)
	if timestampHeader == "" {
		return nil, &WebhookVerificationError{ReasonMissingTimestamp}
	}
	// A repeated FC-Timestamp header is acceptable only when every copy is the same value.
	timestamp := ""
	for i, part := range strings.Split(timestampHeader, ",") {
		part = strings.TrimSpace(part)
		if i > 0 && part != timestamp {
			return nil, &WebhookVerificationError{ReasonMalformedTimestamp}
		}
		timestamp = part
	}
	if !timestampDigits(timestamp) {
		return nil, &WebhookVerificationError{ReasonMalformedTimestamp}
	}
	given, ok := parseSignatures(signatureHeader)
	if !ok {
		return nil, &WebhookVerificationError{ReasonMalformedSignature}
	}
	matched := false
	for _, secret := range secrets {
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write([]byte(timestamp + "."))
		mac.Write(p.RawBody)
		expected := mac.Sum(nil)
		// Every pair is compared (no early exit) so timing says nothing about which entry matched.
		for _, candidate := range given {
			if hmac.Equal(candidate, expected) {
				matched = true
			}
		}
	}
	if !matched {
		return nil, &WebhookVerificationError{ReasonSignatureMismatch}
	}
	sent, _ := strconv.ParseFloat(timestamp, 64)
	if math.Abs(now-sent) > tolerance {
		return nil, &WebhookVerificationError{ReasonTimestampOutsideWindow}
	}
	event, ok := parseEvent(p.RawBody)
	if !ok {
		return nil, &WebhookVerificationError{ReasonInvalidBody}
	}
	return event, nil
}

func wrapInvalid(message string) error {
	return &invalidArgument{message}
}

type invalidArgument struct{ message string }

func (e *invalidArgument) Error() string        { return "fincore: " + e.message }
func (e *invalidArgument) Is(target error) bool { return target == ErrInvalidArgument }

// parseSignatures returns the v1 signatures; false when the header is not a list of scheme=value
// or holds no v1 entry. Other schemes are for other verifiers and are skipped.
func parseSignatures(header string) ([][]byte, bool) {
	var found [][]byte
	for _, part := range strings.Split(header, ",") {
		entry := strings.TrimSpace(part)
		eq := strings.Index(entry, "=")
		if eq <= 0 {
			return nil, false
		}
		scheme, value := entry[:eq], entry[eq+1:]
		if scheme != "v1" {
			continue
		}
		if !hexSignature(value) {
			return nil, false
		}
		decoded, _ := hex.DecodeString(value)
		found = append(found, decoded)
	}
	return found, len(found) > 0
}

func parseEvent(raw []byte) (*WebhookEvent, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		return nil, false
	}
	var event WebhookEvent
	if json.Unmarshal(fields["id"], &event.ID) != nil || event.ID == "" {
		return nil, false
	}
	if json.Unmarshal(fields["type"], &event.Type) != nil || event.Type == "" {
		return nil, false
	}
	created := fields["created"]
	if len(created) == 0 || !(created[0] == '-' || created[0] >= '0' && created[0] <= '9') || json.Unmarshal(created, &event.Created) != nil {
		return nil, false
	}
	data := fields["data"]
	if len(data) == 0 || data[0] != '{' || json.Unmarshal(data, &event.Data) != nil {
		return nil, false
	}
	return &event, true
}
