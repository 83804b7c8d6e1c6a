<?php

declare(strict_types=1);

namespace Fincore;

/** A verified webhook delivery. */
final class WebhookEvent
{
    /** @param array<string, mixed> $data */
    public function __construct(
        public readonly string $id,
        public readonly string $type,
        public readonly int|float $created,
        public readonly array $data,
    ) {
    }
}
