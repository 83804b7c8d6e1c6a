<?php

declare(strict_types=1);

namespace Fincore;

/**
 * Fincore API client.
 *
 *     $client = new Fincore\Client('fc_sk_test_...', 'http://localhost:4010');
 *     $client->accounts->get(accessToken: 'fc_at_...');
 *
 * timeout: seconds per attempt (default 30). maxRetries: extra attempts after a 429, or after a 5xx
 * or network error on a retry-safe call (default 2); a monthly-quota 429 or a Retry-After over 60 s
 * is raised at once. sleeper: how to wait between attempts (tests
 * pass a recorder). apiVersion: sent as FC-Version when given.
 */
final class Client extends GeneratedClient
{
    public readonly Transport $transport;

    /** @param (callable(float): void)|null $sleeper */
    public function __construct(
        string $apiKey,
        string $baseUrl = Transport::DEFAULT_BASE_URL,
        float $timeout = Transport::DEFAULT_TIMEOUT,
        int $maxRetries = Transport::DEFAULT_MAX_RETRIES,
        float $backoffBase = 0.5,
        float $backoffMax = 8.0,
        ?callable $sleeper = null,
        ?string $apiVersion = null,
    ) {
        $this->transport = new Transport($apiKey, $baseUrl, $timeout, $maxRetries, $backoffBase, $backoffMax, $sleeper, $apiVersion);
        $this->attachGroups($this->transport);
    }
}
