//! The smoke journey against a running Fincore service (bin/sdks/language.ts, SmokeSummary):
//! sandbox public token -> exchange -> wait for the history -> accounts -> full sync loop -> one
//! error case -> verify a real captured webhook delivery. Prints one `SMOKE {json}` line.
use fincore::json::{Object, Value};
use fincore::models::{AccessTokenRequest, AccountsGetRequest, LinkTokenExchangeRequest, SandboxPublicTokenCreateRequest, TransactionsSyncRequest};
use fincore::webhook::WebhookDelivery;
use fincore::Client;
use std::time::{Duration, Instant};

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{} is not set", name))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = Client::new(env("FC_BASE_URL"), env("FC_API_KEY"));

    let public_token = client
        .sandbox()
        .public_token_create(&SandboxPublicTokenCreateRequest {
            institution_id: "ins_sandbox_first_bank".into(),
            products: vec!["transactions".to_string()],
            ..Default::default()
        })?
        .public_token;
    let access_token = client.link().token_exchange(&LinkTokenExchangeRequest { public_token })?.access_token;

    let started = Instant::now();
    loop {
        let item = client.items().get(&AccessTokenRequest { access_token: access_token.clone() })?.item;
        if item.transactions_update_status == "historical_update_complete" {
            break;
        }
        if started.elapsed() > Duration::from_secs(60) {
            return Err("the item's history was not ready within 60 s".into());
        }
        std::thread::sleep(Duration::from_millis(200));
    }

    let accounts = client.accounts().get(&AccountsGetRequest { access_token: access_token.clone(), ..Default::default() })?.accounts.len();

    let (mut added, mut pages, mut cursor) = (0usize, 0usize, None::<String>);
    loop {
        let page = client.transactions().sync(&TransactionsSyncRequest { access_token: access_token.clone(), cursor: cursor.clone(), count: Some(500) })?;
        pages += 1;
        added += page.added.len();
        cursor = Some(page.next_cursor);
        if !page.has_more {
            break;
        }
    }

    let error = match client.items().get(&AccessTokenRequest { access_token: "access-sandbox-00000000-0000-0000-0000-000000000000".into() }) {
        Ok(_) => return Err("items.get with an unknown access token succeeded".into()),
        Err(error) => error,
    };

    let body = std::fs::read(env("FC_WEBHOOK_BODY_FILE"))?;
    let signature = env("FC_WEBHOOK_SIGNATURE");
    let timestamp = env("FC_WEBHOOK_TIMESTAMP");
    let event = WebhookDelivery::new(&body, Some(&signature), Some(&timestamp)).verify(&[env("FC_WEBHOOK_SECRET")])?;

    let mut error_summary = Object::new();
    error_summary.insert("status".into(), Value::from(error.status as i64));
    error_summary.insert("type".into(), Value::from(error.error_type.clone()));
    error_summary.insert("code".into(), Value::from(error.code.clone()));
    error_summary.insert("request_id_present".into(), Value::from(error.request_id.as_deref().map_or(false, |id| !id.is_empty())));
    error_summary.insert("documentation_url".into(), error.documentation_url.clone().map_or(Value::Null, Value::from));
    error_summary.insert("display_message".into(), error.display_message.clone().map_or(Value::Null, Value::from));
    let mut summary = Object::new();
    summary.insert("language".into(), Value::from("rust"));
    summary.insert("accounts".into(), Value::from(accounts as i64));
    summary.insert("added".into(), Value::from(added as i64));
    summary.insert("pages".into(), Value::from(pages as i64));
    summary.insert("error".into(), Value::Object(error_summary));
    summary.insert("webhook_type".into(), Value::from(event.event_type));
    println!("SMOKE {}", Value::Object(summary));
    Ok(())
}
