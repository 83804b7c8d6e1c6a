// Package fincore is the Go client of the Fincore financial data API.
//
//	client := fincore.NewClient(os.Getenv("FINCORE_API_KEY"))
//	page, err := client.Transactions.Sync(ctx, &fincore.TransactionsSyncRequest{AccessToken: token})
//
// Models and method groups are generated from openapi.json (models_gen.go, services_gen.go); this
// file is the transport: bearer auth, JSON, timeouts and retries.
package fincore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"time"
)

// DefaultBaseURL is the production API.
const DefaultBaseURL = "https://api.fincore.dev"

// Client calls the API. Create it with NewClient; it is safe for concurrent use.
type Client struct {
	services
	apiKey     string
	baseURL    string
	httpClient *http.Client
	timeout    time.Duration
	maxRetries int
	sleep      func(ctx context.Context, d time.Duration) error
	userAgent  string
}

// Option configures a Client.
type Option func(*Client)

// WithBaseURL points the client at another deployment (a local service, a staging stack).
func WithBaseURL(url string) Option {
	return func(c *Client) { c.baseURL = strings.TrimRight(url, "/") }
}

// WithTimeout bounds each attempt (default 30 s).
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithMaxRetries sets how many times a failed call is retried (default 2; 0 turns retries off).
func WithMaxRetries(n int) Option {
	return func(c *Client) {
		if n >= 0 {
			c.maxRetries = n
		}
	}
}

// WithHTTPClient replaces the http.Client (proxies, custom TLS, test transports).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.httpClient = h } }

// WithSleeper replaces the wait between retries; tests pass one that returns at once.
func WithSleeper(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = sleep }
}

// NewClient builds a client for the given secret key (fc_sk_test_... or fc_sk_live_...).
func NewClient(apiKey string, options ...Option) *Client {
	c := &Client{
		apiKey:     apiKey,
		baseURL:    DefaultBaseURL,
		httpClient: &http.Client{},
		timeout:    30 * time.Second,
		maxRetries: 2,
		sleep:      sleepContext,
		userAgent:  "fincore-go/" + APIVersion,
	}
	for _, option := range options {
		option(c)
	}
	c.initServices()
	return c
}

func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// backoff is the wait before retry number attempt+1: 0.5 s, 1 s, 2 s, ... capped at 8 s.
func backoff(attempt int) time.Duration {
	d := 500 * time.Millisecond << uint(attempt)
	if d > 8*time.Second || d <= 0 {
		return 8 * time.Second
	}
	return d
}

// call POSTs params as JSON and decodes the answer into out. A 429 is always retried (the API did
// nothing); a 5xx or a lost connection only when retrySafe, since the first attempt may have
// happened.
func (c *Client) call(ctx context.Context, path string, retrySafe bool, params any, out any) error {
	var payload []byte
	var err error
	if params == nil || isNilPointer(params) {
		payload = []byte("{}")
	} else if payload, err = json.Marshal(params); err != nil {
		return fmt.Errorf("fincore: encoding the request: %w", err)
	}
	for attempt := 0; ; attempt++ {
		status, header, body, sendErr := c.send(ctx, path, payload)
		var failure *Error
		retryable := false
		wait := time.Duration(0)
		switch {
		case sendErr != nil:
			if ctx.Err() != nil {
				return &Error{Type: "connection_error", Code: "canceled", Message: ctx.Err().Error(), Err: ctx.Err()}
			}
			code := "network_error"
			if isTimeout(sendErr) {
				code = "timeout"
			}
			failure = &Error{Type: "connection_error", Code: code, Message: sendErr.Error(), Err: sendErr}
			retryable = retrySafe
		case status >= 200 && status < 300:
			if err := json.Unmarshal(body, out); err != nil {
				return &Error{Status: status, Type: "api_error", Code: "invalid_response", Message: "the answer is not the expected JSON: " + err.Error(), RequestID: header.Get("X-Request-Id")}
			}
			return nil
		default:
			failure = errorFromResponse(status, header, body)
			retryable = status == http.StatusTooManyRequests || (status >= 500 && retrySafe)
			wait = failure.RetryAfter
		}
		if !retryable || attempt >= c.maxRetries || neverRetried(failure) {
			return failure
		}
		if wait == 0 {
			wait = backoff(attempt)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return &Error{Type: "connection_error", Code: "canceled", Message: err.Error(), Err: err}
		}
	}
}

// maxRetryAfterWait is the longest Retry-After the client sleeps through; a longer one is handed back to
// the caller at once (with its RetryAfter intact) rather than blocking a goroutine for minutes.
const maxRetryAfterWait = 60 * time.Second

// neverRetried: a monthly quota 429 carries the seconds until the monthly reset (days or weeks), and
// any Retry-After over maxRetryAfterWait is better left to the caller than slept through.
func neverRetried(failure *Error) bool {
	if failure.Code == "monthly_api_quota_exceeded" || failure.Code == "monthly_ai_quota_exceeded" {
		return true
	}
	return failure.RetryAfter > maxRetryAfterWait
}

func (c *Client) send(ctx context.Context, path string, payload []byte) (int, http.Header, []byte, error) {
	attemptCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(attemptCtx, http.MethodPost, c.baseURL+path, bytes.NewReader(payload))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	res, err := c.httpClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, nil, err
	}
	return res.StatusCode, res.Header, body, nil
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// isNilPointer: a typed nil (*T)(nil) passed as params means "no body" (sent as {}).
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Ptr && rv.IsNil()
}
