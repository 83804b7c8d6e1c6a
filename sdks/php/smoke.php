<?php

// Smoke test against a running Fincore service (the journey of bin/sdks/language.ts).
// Environment: FC_BASE_URL, FC_API_KEY and a captured webhook delivery (FC_WEBHOOK_SECRET,
// FC_WEBHOOK_BODY_FILE, FC_WEBHOOK_SIGNATURE, FC_WEBHOOK_TIMESTAMP, FC_WEBHOOK_TYPE).
// Prints one line `SMOKE {json}` and exits 0, or fails loudly.

declare(strict_types=1);

require __DIR__ . '/src/autoload.php';

use Fincore\Client;
use Fincore\FincoreException;
use Fincore\Webhook;

const UNKNOWN_ACCESS_TOKEN = 'access-sandbox-00000000-0000-0000-0000-000000000000';

function env(string $name): string
{
    $value = getenv($name);
    if ($value === false || $value === '') {
        fwrite(STDERR, "{$name} is not set\n");
        exit(1);
    }
    return $value;
}

$client = new Client(env('FC_API_KEY'), env('FC_BASE_URL'));

$publicToken = $client->sandbox->publicTokenCreate(institutionId: 'ins_sandbox_first_bank', products: ['transactions'])->publicToken;
$accessToken = $client->link->tokenExchange(publicToken: $publicToken)->accessToken;

$deadline = microtime(true) + 60;
while ($client->items->get(accessToken: $accessToken)->item->transactionsUpdateStatus !== 'historical_update_complete') {
    if (microtime(true) > $deadline) {
        fwrite(STDERR, "the item's history did not finish loading within 60 s\n");
        exit(1);
    }
    usleep(200_000);
}

$accounts = $client->accounts->get(accessToken: $accessToken)->accounts;

$added = 0;
$pages = 0;
$cursor = null;
do {
    $page = $client->transactions->sync(accessToken: $accessToken, cursor: $cursor, count: 500);
    $pages++;
    $added += count($page->added);
    $cursor = $page->nextCursor;
} while ($page->hasMore);

try {
    $client->items->get(accessToken: UNKNOWN_ACCESS_TOKEN);
    fwrite(STDERR, "items.get with an unknown access token did not fail\n");
    exit(1);
} catch (FincoreException $error) {
    $failure = [
        'status' => $error->getStatus(),
        'type' => $error->getType(),
        'code' => $error->getErrorCode(),
        'request_id_present' => (string) $error->getRequestId() !== '',
        'documentation_url' => $error->getDocumentationUrl(),
        'display_message' => $error->getDisplayMessage(),
    ];
}

$event = Webhook::verify((string) file_get_contents(env('FC_WEBHOOK_BODY_FILE')), env('FC_WEBHOOK_SIGNATURE'), env('FC_WEBHOOK_TIMESTAMP'), env('FC_WEBHOOK_SECRET'));
$expectedType = getenv('FC_WEBHOOK_TYPE') ?: $event->type;
if ($event->type !== $expectedType) {
    fwrite(STDERR, "verified event type {$event->type} differs from the captured {$expectedType}\n");
    exit(1);
}

$summary = ['language' => 'php', 'accounts' => count($accounts), 'added' => $added, 'pages' => $pages, 'error' => $failure, 'webhook_type' => $event->type];
echo 'SMOKE ' . json_encode($summary, JSON_UNESCAPED_SLASHES) . "\n";
