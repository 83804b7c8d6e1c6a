package fincore

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// stub answers each request with the next scripted reply and records what it received.
type stub struct {
	mu      sync.Mutex
	replies []func(w http.ResponseWriter)
	bodies  []string
	auth    []string
	paths   []string
}

func (s *stub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	s.bodies = append(s.bodies, string(body))
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.paths = append(s.paths, r.Method+" "+r.URL.Path)
	reply := s.replies[0]
	if len(s.replies) > 1 {
		s.replies = s.replies[1:]
	}
	reply(w)
}

func status(code int, headers map[string]string, body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for k, v := range headers {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

const okItem = `{"item":{"item_id":"item_1","institution_id":"ins_1","institution_name":"First","status":"healthy","connector":"sandbox","error":null,"consented_products":["transactions"],"last_successful_sync":null,"created_at":"2026-01-01T00:00:00Z","transactions_update_status":"historical_update_complete","some_future_field":1}}`

func rateLimited(retryAfter string) func(w http.ResponseWriter) {
	headers := map[string]string{"X-Request-Id": "req_rl"}
	if retryAfter != "" {
		headers["Retry-After"] = retryAfter
	}
	return status(429, headers, `{"error":{"type":"rate_limit_error","code":"rate_limit_exceeded","message":"slow down","request_id":"req_rl"}}`)
}

var serverError = status(500, nil, `{"error":{"type":"api_error","code":"internal_error","message":"boom","request_id":"req_500"}}`)

func newTestClient(t *testing.T, s *stub, options ...Option) (*Client, *[]time.Duration) {
	server := httptest.NewServer(s)
	t.Cleanup(server.Close)
	var waits []time.Duration
	options = append([]Option{
		WithBaseURL(server.URL),
		WithSleeper(func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }),
	}, options...)
	return NewClient("fc_sk_test_abcdefghijklmnop", options...), &waits
}

func TestSendsBearerKeyAndJSONAndDecodesTolerantly(t *testing.T) {
	s := &stub{replies: []func(http.ResponseWriter){status(200, nil, okItem)}}
	client, _ := newTestClient(t, s)
	res, err := client.Items.Get(context.Background(), &AccessTokenRequest{AccessToken: "fc_at_x"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Item.ItemID != "item_1" || res.Item.TransactionsUpdateStatus != "historical_update_complete" || res.Item.Error != nil {
		t.Fatalf("decoded %+v", res.Item)
	}
	if s.auth[0] != "Bearer fc_sk_test_abcdefghijklmnop" || s.paths[0] != "POST /v1/items/get" || s.bodies[0] != `{"access_token":"fc_at_x"}` {
		t.Fatalf("sent %v %v %v", s.auth, s.paths, s.bodies)
	}
}

func TestOptionalFieldsStayOutOfTheBody(t *testing.T) {
	s := &stub{replies: []func(http.ResponseWriter){status(200, nil, `{"added":[],"modified":[],"removed":[],"next_cursor":"c","has_more":false,"transactions_update_status":"not_ready"}`)}}
	client, _ := newTestClient(t, s)
	if _, err := client.Transactions.Sync(context.Background(), &TransactionsSyncRequest{AccessToken: "fc_at_x"}); err != nil {
		t.Fatal(err)
	}
	count := int64(500)
	if _, err := client.Transactions.Sync(context.Background(), &TransactionsSyncRequest{AccessToken: "fc_at_x", Count: &count}); err != nil {
		t.Fatal(err)
	}
	if s.bodies[0] != `{"access_token":"fc_at_x"}` || s.bodies[1] != `{"access_token":"fc_at_x","count":500}` {
		t.Fatalf("bodies %v", s.bodies)
	}
}

func TestOmittedOptionalBodySendsEmptyObject(t *testing.T) {
	s := &stub{replies: []func(http.ResponseWriter){status(200, nil, `{"categories":[]}`)}}
	client, _ := newTestClient(t, s)
	if _, err := client.Products.CategoriesGet(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if s.bodies[0] != "{}" {
		t.Fatalf("body %q", s.bodies[0])
	}
}

func TestRetries429HonouringRetryAfterEvenWhenUnsafe(t *testing.T) {
	s := &stub{replies: []func(http.ResponseWriter){rateLimited("3"), status(200, nil, `{"access_token":"fc_at_1","item_id":"item_1","rotated":false}`)}}
	client, waits := newTestClient(t, s)
	if _, err := client.Link.TokenExchange(context.Background(), &LinkTokenExchangeRequest{PublicToken: "public-sandbox-x"}); err != nil {
		t.Fatal(err)
	}
	if len(s.bodies) != 2 || len(*waits) != 1 || (*waits)[0] != 3*time.Second {
		t.Fatalf("attempts %d waits %v", len(s.bodies), *waits)
	}
}

func TestMonthlyQuota429IsNeverRetriedAndKeepsRetryAfter(t *testing.T) {
	for _, code := range []string{"monthly_api_quota_exceeded", "monthly_ai_quota_exceeded"} {
		s := &stub{replies: []func(http.ResponseWriter){status(429, map[string]string{"Retry-After": "3"}, `{"error":{"type":"rate_limit_error","code":"`+code+`","message":"quota","request_id":"req_q"}}`)}}
		client, waits := newTestClient(t, s)
		_, err := client.Items.Get(context.Background(), &AccessTokenRequest{AccessToken: "fc_at_x"})
		var apiErr *Error
		if !errors.As(err, &apiErr) || apiErr.Code != code || apiErr.RetryAfter != 3*time.Second {
			t.Fatalf("%s: got %v", code, err)
		}
		if len(s.bodies) != 1 || len(*waits) != 0 {
			t.Fatalf("%s: attempts %d waits %v", code, len(s.bodies), *waits)
		}
	}
}

func TestRetryAfterOverSixtySecondsIsReturnedAtOnce(t *testing.T) {
	s := &stub{replies: []func(http.ResponseWriter){rateLimited("1209600"), status(200, nil, okItem)}}
	client, waits := newTestClient(t, s)
	_, err := client.Items.Get(context.Background(), &AccessTokenRequest{AccessToken: "fc_at_x"})
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Code != "rate_limit_exceeded" || apiErr.RetryAfter != 1209600*time.Second {
		t.Fatalf("got %v", err)
	}
	if len(s.bodies) != 1 || len(*waits) != 0 {
		t.Fatalf("attempts %d waits %v", len(s.bodies), *waits)
	}
}

func Test429WithoutRetryAfterBacksOffExponentiallyThenGivesUp(t *testing.T) {
	s := &stub{replies: []func(http.ResponseWriter){rateLimited("")}}
	client, waits := newTestClient(t, s)
	_, err := client.Items.Get(context.Background(), &AccessTokenRequest{AccessToken: "fc_at_x"})
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Status != 429 || apiErr.Code != "rate_limit_exceeded" || apiErr.Type != "rate_limit_error" {
		t.Fatalf("got %v", err)
	}
	if len(s.bodies) != 3 || len(*waits) != 2 || (*waits)[0] != 500*time.Millisecond || (*waits)[1] != time.Second {
		t.Fatalf("attempts %d waits %v", len(s.bodies), *waits)
	}
}

func TestServerErrorRetriedOnlyWhenSafe(t *testing.T) {
	safe := &stub{replies: []func(http.ResponseWriter){serverError, serverError, status(200, nil, okItem)}}
	client, waits := newTestClient(t, safe)
	if _, err := client.Items.Get(context.Background(), &AccessTokenRequest{AccessToken: "fc_at_x"}); err != nil {
		t.Fatalf("a safe call must be retried through two 500s: %v", err)
	}
	if len(safe.bodies) != 3 || len(*waits) != 2 {
		t.Fatalf("attempts %d waits %v", len(safe.bodies), *waits)
	}

	unsafe := &stub{replies: []func(http.ResponseWriter){serverError, status(200, nil, `{}`)}}
	client, waits = newTestClient(t, unsafe)
	_, err := client.Link.TokenExchange(context.Background(), &LinkTokenExchangeRequest{PublicToken: "public-sandbox-x"})
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Status != 500 || apiErr.Code != "internal_error" || apiErr.RequestID != "req_500" {
		t.Fatalf("got %v", err)
	}
	if len(unsafe.bodies) != 1 || len(*waits) != 0 {
		t.Fatalf("an unsafe call was retried: attempts %d", len(unsafe.bodies))
	}
}

func TestMaxRetriesIsConfigurable(t *testing.T) {
	s := &stub{replies: []func(http.ResponseWriter){serverError}}
	client, _ := newTestClient(t, s, WithMaxRetries(0))
	if _, err := client.Items.Get(context.Background(), &AccessTokenRequest{AccessToken: "fc_at_x"}); err == nil {
		t.Fatal("want an error")
	}
	if len(s.bodies) != 1 {
		t.Fatalf("attempts %d", len(s.bodies))
	}
}

func TestErrorMapping(t *testing.T) {
	s := &stub{replies: []func(http.ResponseWriter){
		status(400, map[string]string{"X-Request-Id": "req_h"}, `{"error":{"type":"invalid_request","code":"invalid_field","message":"bad access_token","request_id":"req_b"}}`),
		status(502, map[string]string{"X-Request-Id": "req_gw"}, `<html>bad gateway</html>`),
	}}
	client, _ := newTestClient(t, s, WithMaxRetries(0))
	_, err := client.Items.Get(context.Background(), &AccessTokenRequest{AccessToken: "x"})
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Type != "invalid_request" || apiErr.Code != "invalid_field" || apiErr.Message != "bad access_token" || apiErr.RequestID != "req_b" {
		t.Fatalf("got %#v", err)
	}
	_, err = client.Items.Get(context.Background(), &AccessTokenRequest{AccessToken: "x"})
	if !errors.As(err, &apiErr) || apiErr.Status != 502 || apiErr.Type != "api_error" || apiErr.RequestID != "req_gw" || !strings.Contains(apiErr.Message, "bad gateway") {
		t.Fatalf("got %#v", err)
	}
}

func TestNetworkErrorRetriedOnlyWhenSafe(t *testing.T) {
	server := httptest.NewServer(http.NotFoundHandler())
	url := server.URL
	server.Close() // nothing listens there any more: every attempt fails to connect
	var waits []time.Duration
	client := NewClient("fc_sk_test_abcdefghijklmnop", WithBaseURL(url), WithSleeper(func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }))
	_, err := client.Items.Get(context.Background(), &AccessTokenRequest{AccessToken: "fc_at_x"})
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Status != 0 || apiErr.Type != "connection_error" || len(waits) != 2 {
		t.Fatalf("safe call: %v waits %v", err, waits)
	}
	waits = nil
	_, err = client.Link.TokenExchange(context.Background(), &LinkTokenExchangeRequest{PublicToken: "p"})
	if !errors.As(err, &apiErr) || apiErr.Type != "connection_error" || len(waits) != 0 {
		t.Fatalf("unsafe call: %v waits %v", err, waits)
	}
}

func TestTimeoutIsAConnectionError(t *testing.T) {
	release := make(chan struct{})
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer server.Close()
	defer close(release)
	client := NewClient("k", WithBaseURL(server.URL), WithTimeout(50*time.Millisecond), WithMaxRetries(0))
	_, err := client.Items.Get(context.Background(), &AccessTokenRequest{AccessToken: "fc_at_x"})
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Code != "timeout" {
		t.Fatalf("got %v", err)
	}
}
