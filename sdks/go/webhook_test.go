package fincore

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// vectorNumber is a number or the name of a non-finite one ("NaN", "Infinity", "-Infinity").
type vectorNumber float64

func (n *vectorNumber) UnmarshalJSON(b []byte) error {
	var text string
	if json.Unmarshal(b, &text) == nil {
		switch text {
		case "NaN":
			*n = vectorNumber(math.NaN())
		case "Infinity":
			*n = vectorNumber(math.Inf(1))
		case "-Infinity":
			*n = vectorNumber(math.Inf(-1))
		default:
			return errors.New("unknown number name " + text)
		}
		return nil
	}
	var f float64
	err := json.Unmarshal(b, &f)
	*n = vectorNumber(f)
	return err
}

type webhookVector struct {
	Name      string       `json:"name"`
	Secrets   []string     `json:"secrets"`
	Body      string       `json:"body"`
	Signature *string      `json:"signature"`
	Timestamp *string      `json:"timestamp"`
	Now       vectorNumber `json:"now"`
	Tolerance vectorNumber `json:"tolerance_seconds"`
	Expected  struct {
		OK        *bool  `json:"ok"`
		EventType string `json:"event_type"`
		Reason    string `json:"reason"`
		Error     string `json:"error"`
	} `json:"expected"`
}

func vectorsPath() string {
	if path := os.Getenv("FC_WEBHOOK_VECTORS"); path != "" {
		return path
	}
	return filepath.Join("..", "webhook-vectors.json")
}

func TestWebhookVectors(t *testing.T) {
	raw, err := os.ReadFile(vectorsPath())
	if err != nil {
		t.Fatalf("reading the shared vectors: %v", err)
	}
	var file struct {
		Vectors []webhookVector `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) == 0 {
		t.Fatal("no vectors")
	}
	for _, v := range file.Vectors {
		v := v
		t.Run(v.Name, func(t *testing.T) {
			now, tolerance := float64(v.Now), float64(v.Tolerance)
			params := WebhookParams{RawBody: []byte(v.Body), Secrets: v.Secrets, NowSeconds: &now, ToleranceSeconds: &tolerance}
			if v.Signature != nil {
				params.Signature = *v.Signature
			}
			if v.Timestamp != nil {
				params.Timestamp = *v.Timestamp
			}
			event, err := VerifyWebhook(params)
			var rejected *WebhookVerificationError
			switch {
			case v.Expected.Error != "":
				if !errors.Is(err, ErrInvalidArgument) {
					t.Fatalf("want invalid argument, got event=%v err=%v", event, err)
				}
			case v.Expected.OK != nil && *v.Expected.OK:
				if err != nil || event.Type != v.Expected.EventType {
					t.Fatalf("want %s, got event=%v err=%v", v.Expected.EventType, event, err)
				}
			default:
				if !errors.As(err, &rejected) || rejected.Reason != v.Expected.Reason {
					t.Fatalf("want %s, got event=%v err=%v", v.Expected.Reason, event, err)
				}
			}
		})
	}
}

func sign(secret, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "."))
	mac.Write(body)
	return "v1=" + hex.EncodeToString(mac.Sum(nil))
}

func TestWebhookDefaultsUseTheRealClockAndDefaultWindow(t *testing.T) {
	body := []byte(`{"id":"evt_1","type":"item.error","created":1,"data":{}}`)
	fresh := strconv.FormatInt(time.Now().Unix()-200, 10)
	event, err := VerifyWebhook(WebhookParams{RawBody: body, Signature: sign("s", fresh, body), Timestamp: fresh, Secrets: []string{"s"}})
	if err != nil || event.ID != "evt_1" || event.Created != 1 {
		t.Fatalf("a 200 s old delivery must verify with the default window: %v %v", event, err)
	}
	stale := strconv.FormatInt(time.Now().Unix()-400, 10)
	_, err = VerifyWebhook(WebhookParams{RawBody: body, Signature: sign("s", stale, body), Timestamp: stale, Secrets: []string{"s"}})
	var rejected *WebhookVerificationError
	if !errors.As(err, &rejected) || rejected.Reason != ReasonTimestampOutsideWindow {
		t.Fatalf("a 400 s old delivery must be outside the default window: %v", err)
	}
}
