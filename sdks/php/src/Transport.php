<?php

declare(strict_types=1);

namespace Fincore;

/**
 * HTTP transport over PHP stream contexts (no ext-curl needed): bearer auth, JSON, timeouts, retries.
 */
final class Transport
{
    public const DEFAULT_BASE_URL = 'https://api.fincore.dev';
    public const DEFAULT_TIMEOUT = 30.0;
    public const DEFAULT_MAX_RETRIES = 2;
    /** The longest Retry-After (seconds) the client waits out; a longer wait is the caller's decision. */
    public const MAX_RETRY_AFTER_SECONDS = 60.0;
    /**
     * 429 codes a short wait cannot clear: the quota resets on the first of next month, and the
     * Retry-After of these answers is the time until then.
     */
    public const MONTHLY_QUOTA_CODES = ['monthly_api_quota_exceeded', 'monthly_ai_quota_exceeded'];

    private readonly string $baseUrl;
    /** @var callable(float): void */
    private $sleeper;

    /** @param (callable(float): void)|null $sleeper how to wait between attempts (tests pass a recorder) */
    public function __construct(
        private readonly string $apiKey,
        string $baseUrl = self::DEFAULT_BASE_URL,
        public readonly float $timeout = self::DEFAULT_TIMEOUT,
        public readonly int $maxRetries = self::DEFAULT_MAX_RETRIES,
        private readonly float $backoffBase = 0.5,
        private readonly float $backoffMax = 8.0,
        ?callable $sleeper = null,
        private readonly ?string $apiVersion = null,
    ) {
        if ($apiKey === '') {
            throw new \InvalidArgumentException('apiKey is required');
        }
        if ($maxRetries < 0) {
            throw new \InvalidArgumentException('maxRetries must be 0 or more');
        }
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->sleeper = $sleeper ?? static function (float $seconds): void {
            usleep((int) round($seconds * 1_000_000));
        };
    }

    /** Exponential: base, 2*base, 4*base, ... capped at backoffMax. */
    public function backoff(int $attempt): float
    {
        return min($this->backoffMax, $this->backoffBase * (2 ** $attempt));
    }

    /**
     * @template T of Model
     * @param class-string<T> $responseModel
     * @return T
     */
    public function call(string $method, string $path, ?Model $body, string $responseModel, bool $retrySafe): Model
    {
        $data = $this->request($method, $path, $body, $retrySafe);
        return $responseModel::fromArray(is_array($data) ? $data : []);
    }

    public function request(string $method, string $path, ?\JsonSerializable $body, bool $retrySafe): mixed
    {
        $payload = $method === 'GET' ? null : json_encode($body ?? new \stdClass(), JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION);
        for ($attempt = 0; ; $attempt++) {
            try {
                return $this->sendOnce($method, $path, $payload);
            } catch (FincoreException $error) {
                // 429: the request was refused and did nothing, so it is safe to repeat (unless it is
                // a used-up monthly quota). 5xx and no answer: the outcome is unknown, so only a
                // retry-safe call repeats. A Retry-After over the cap is raised with its value.
                $status = $error->getStatus();
                $retryable = ($status === 429 && !in_array($error->getErrorCode(), self::MONTHLY_QUOTA_CODES, true))
                    || ($retrySafe && ($status >= 500 || $status === 0));
                $retryAfter = $error->getRetryAfter();
                $waitTooLong = $retryAfter !== null && $retryAfter > self::MAX_RETRY_AFTER_SECONDS;
                if (!$retryable || $waitTooLong || $attempt >= $this->maxRetries) {
                    throw $error;
                }
                ($this->sleeper)($retryAfter ?? $this->backoff($attempt));
            }
        }
    }

    public static function retryAfterSeconds(?string $value): ?float
    {
        if ($value === null || !is_numeric(trim($value))) {
            return null;
        }
        $seconds = (float) trim($value);
        return is_finite($seconds) && $seconds >= 0 ? $seconds : null;
    }

    private function sendOnce(string $method, string $path, ?string $payload): mixed
    {
        $headers = [
            "Authorization: Bearer {$this->apiKey}",
            'Accept: application/json',
            'User-Agent: fincore-php',
            'Connection: close',
        ];
        if ($payload !== null) {
            $headers[] = 'Content-Type: application/json';
        }
        if ($this->apiVersion !== null) {
            $headers[] = "FC-Version: {$this->apiVersion}";
        }
        $context = stream_context_create(['http' => [
            'method' => $method,
            'header' => implode("\r\n", $headers),
            'content' => $payload ?? '',
            'timeout' => $this->timeout,
            'ignore_errors' => true,
            'protocol_version' => 1.1,
            'follow_location' => 0,
        ]]);
        $problem = null;
        set_error_handler(static function (int $severity, string $message) use (&$problem): bool {
            $problem = $message;
            return true;
        });
        $previousTimeout = ini_set('default_socket_timeout', (string) $this->timeout);
        try {
            $stream = fopen($this->baseUrl . $path, 'rb', false, $context);
            $raw = $stream === false ? false : stream_get_contents($stream);
            $meta = $stream === false ? [] : stream_get_meta_data($stream);
            if ($stream !== false) {
                fclose($stream);
            }
        } finally {
            restore_error_handler();
            if ($previousTimeout !== false) {
                ini_set('default_socket_timeout', $previousTimeout);
            }
        }
        $timedOut = ($meta['timed_out'] ?? false) || ($problem !== null && stripos($problem, 'timed out') !== false);
        if ($timedOut) {
            throw new FincoreException(0, 'connection_error', 'timeout', "no answer within {$this->timeout} s");
        }
        $responseHeaders = $meta['wrapper_data'] ?? [];
        if ($stream === false || $raw === false || $responseHeaders === []) {
            throw new FincoreException(0, 'connection_error', 'network_error', "{$method} {$path} failed: " . ($problem ?? 'no answer'));
        }
        [$status, $named] = self::parseHeaders($responseHeaders);
        if ($status < 200 || $status > 299) {
            throw self::errorFrom($status, $named, $raw);
        }
        return $raw === '' ? [] : json_decode($raw, true, 512, JSON_THROW_ON_ERROR);
    }

    /**
     * The final status and headers (lower-case names) from the wrapper's raw header lines.
     *
     * @param list<string> $lines
     * @return array{0: int, 1: array<string, string>}
     */
    private static function parseHeaders(array $lines): array
    {
        $status = 0;
        $named = [];
        foreach ($lines as $line) {
            if (preg_match('#^HTTP/\S+\s+(\d{3})#', $line, $match)) {
                $status = (int) $match[1];
                $named = [];
            } elseif (str_contains($line, ':')) {
                [$name, $value] = explode(':', $line, 2);
                $named[strtolower(trim($name))] = trim($value);
            }
        }
        return [$status, $named];
    }

    /** @param array<string, string> $headers */
    private static function errorFrom(int $status, array $headers, string $raw): FincoreException
    {
        $body = json_decode($raw, true);
        $error = is_array($body) && is_array($body['error'] ?? null) ? $body['error'] : null;
        $requestId = $headers['x-request-id'] ?? null;
        $retryAfter = self::retryAfterSeconds($headers['retry-after'] ?? null);
        if ($error !== null) {
            return new FincoreException(
                $status,
                (string) ($error['type'] ?? 'api_error'),
                (string) ($error['code'] ?? 'unknown'),
                (string) ($error['message'] ?? ''),
                isset($error['request_id']) ? (string) $error['request_id'] : $requestId,
                $retryAfter,
                $body,
                isset($error['documentation_url']) ? (string) $error['documentation_url'] : null,
                isset($error['display_message']) ? (string) $error['display_message'] : null,
            );
        }
        return new FincoreException($status, 'api_error', "http_{$status}", "HTTP {$status} without an error body", $requestId, $retryAfter);
    }
}
