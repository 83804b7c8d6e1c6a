<?php

declare(strict_types=1);

namespace Fincore;

/**
 * The delivery is not authentic or not well formed. getReason() is one of: missing_signature,
 * missing_timestamp, malformed_timestamp, malformed_signature, signature_mismatch,
 * timestamp_outside_window, invalid_body.
 */
final class WebhookVerificationException extends \RuntimeException
{
    public function __construct(private readonly string $reason)
    {
        parent::__construct("webhook verification failed: {$reason}");
    }

    public function getReason(): string
    {
        return $this->reason;
    }
}
