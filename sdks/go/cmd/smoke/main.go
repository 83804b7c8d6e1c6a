// The smoke test against a running service (bin/test-sdks.ts runs it with FC_BASE_URL, FC_API_KEY
// and a captured webhook delivery in the environment): sandbox token -> exchange -> wait for the
// history -> accounts -> full sync -> one error case -> verify the delivery. Prints one line
// `SMOKE {json}`.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	fincore "github.com/fincore/fincore-go"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "smoke failed:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx := context.Background()
	client := fincore.NewClient(os.Getenv("FC_API_KEY"), fincore.WithBaseURL(os.Getenv("FC_BASE_URL")))

	public, err := client.Sandbox.PublicTokenCreate(ctx, &fincore.SandboxPublicTokenCreateRequest{
		InstitutionID: "ins_sandbox_first_bank", Products: []string{"transactions"},
	})
	if err != nil {
		return fmt.Errorf("sandbox public token: %w", err)
	}
	exchanged, err := client.Link.TokenExchange(ctx, &fincore.LinkTokenExchangeRequest{PublicToken: public.PublicToken})
	if err != nil {
		return fmt.Errorf("exchange: %w", err)
	}
	token := &fincore.AccessTokenRequest{AccessToken: exchanged.AccessToken}

	deadline := time.Now().Add(60 * time.Second)
	for {
		item, err := client.Items.Get(ctx, token)
		if err != nil {
			return fmt.Errorf("items.get: %w", err)
		}
		if item.Item.TransactionsUpdateStatus == "historical_update_complete" {
			break
		}
		if time.Now().After(deadline) {
			return errors.New("the history did not finish loading within 60 s")
		}
		time.Sleep(200 * time.Millisecond)
	}

	accounts, err := client.Accounts.Get(ctx, &fincore.AccountsGetRequest{AccessToken: exchanged.AccessToken})
	if err != nil {
		return fmt.Errorf("accounts.get: %w", err)
	}

	added, pages := 0, 0
	count := int64(500)
	var cursor *string
	for {
		page, err := client.Transactions.Sync(ctx, &fincore.TransactionsSyncRequest{AccessToken: exchanged.AccessToken, Cursor: cursor, Count: &count})
		if err != nil {
			return fmt.Errorf("transactions.sync: %w", err)
		}
		pages++
		added += len(page.Added)
		next := page.NextCursor
		cursor = &next
		if !page.HasMore {
			break
		}
	}

	_, err = client.Items.Get(ctx, &fincore.AccessTokenRequest{AccessToken: "access-sandbox-00000000-0000-0000-0000-000000000000"})
	var apiErr *fincore.Error
	if !errors.As(err, &apiErr) {
		return fmt.Errorf("the bad access token did not give a *fincore.Error: %v", err)
	}

	body, err := os.ReadFile(os.Getenv("FC_WEBHOOK_BODY_FILE"))
	if err != nil {
		return err
	}
	event, err := fincore.VerifyWebhook(fincore.WebhookParams{
		RawBody:   body,
		Signature: os.Getenv("FC_WEBHOOK_SIGNATURE"),
		Timestamp: os.Getenv("FC_WEBHOOK_TIMESTAMP"),
		Secrets:   []string{os.Getenv("FC_WEBHOOK_SECRET")},
	})
	if err != nil {
		return fmt.Errorf("the captured delivery did not verify: %w", err)
	}

	summary := map[string]any{
		"language": "go",
		"accounts": len(accounts.Accounts),
		"added":    added,
		"pages":    pages,
		"error": map[string]any{
			"status": apiErr.Status, "type": apiErr.Type, "code": apiErr.Code, "request_id_present": apiErr.RequestID != "",
			"documentation_url": apiErr.DocumentationURL, "display_message": nilIfEmpty(apiErr.DisplayMessage),
		},
		"webhook_type": event.Type,
	}
	line, _ := json.Marshal(summary)
	fmt.Println("SMOKE " + string(line))
	return nil
}

// nilIfEmpty reports "" as JSON null, as the API sends a display_message it does not set.
func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
