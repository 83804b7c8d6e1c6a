<?php

declare(strict_types=1);

namespace Fincore;

/**
 * Webhook signature verification: the same checks, in the same order, as the service's reference.
 *
 * Each delivery carries `FC-Timestamp: <Unix seconds>` and
 * `FC-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + raw body)>[,v1=<hex>...]`
 * (one entry per active signing secret during a rotation).
 */
final class Webhook
{
    public const SIGNATURE_HEADER = 'FC-Signature';
    public const TIMESTAMP_HEADER = 'FC-Timestamp';
    public const DEFAULT_TOLERANCE_SECONDS = 300;

    private const HEX_SIGNATURE = '/\A[0-9a-fA-F]{64}\z/';
    private const TIMESTAMP = '/\A[0-9]{1,15}\z/';
    /** The characters JavaScript's String.prototype.trim removes, so every library trims alike. */
    private const JS_SPACE = '[\x{9}-\x{d}\x{20}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]';

    /**
     * Verifies one delivery and returns its event; throws WebhookVerificationException (getReason())
     * when it fails, \InvalidArgumentException for arguments that are programming errors (no
     * non-empty secret, a tolerance or now that is not a finite number: NaN would otherwise switch
     * the window off).
     *
     * @param string $rawBody the body exactly as received (file_get_contents('php://input'))
     * @param string|list<string>|null $signature the FC-Signature header (a list when repeated)
     * @param string|list<string>|null $timestamp the FC-Timestamp header
     * @param string|list<string> $secrets one secret or several (during a rotation any may match)
     * @param int|float $toleranceSeconds allowed clock distance, either direction
     * @param int|float|null $now the receiver's clock in Unix seconds (default microtime(true))
     */
    public static function verify(
        string $rawBody,
        string|array|null $signature,
        string|array|null $timestamp,
        string|array $secrets,
        int|float $toleranceSeconds = self::DEFAULT_TOLERANCE_SECONDS,
        int|float|null $now = null,
    ): WebhookEvent {
        $secretList = array_values(array_filter(is_array($secrets) ? $secrets : [$secrets], static fn ($s) => is_string($s) && $s !== ''));
        if ($secretList === []) {
            throw new \InvalidArgumentException('Webhook::verify needs a non-empty secret');
        }
        if (!is_finite((float) $toleranceSeconds) || $toleranceSeconds < 0) {
            throw new \InvalidArgumentException('toleranceSeconds must be a finite number of seconds, 0 or more');
        }
        $now ??= microtime(true);
        if (!is_finite((float) $now)) {
            throw new \InvalidArgumentException('now must be a finite number of Unix seconds');
        }

        $signatureHeader = self::headerText($signature);
        if ($signatureHeader === null) {
            throw new WebhookVerificationException('missing_signature');
        }
        $timestampHeader = self::headerText($timestamp);
        if ($timestampHeader === null) {
            throw new WebhookVerificationException('missing_timestamp');
        }

        // A repeated FC-Timestamp header is acceptable only when every copy is the same value.
        $stamps = array_values(array_unique(array_map(self::trim(...), explode(',', $timestampHeader))));
        $stamp = $stamps[0];
        if (count($stamps) !== 1 || !preg_match(self::TIMESTAMP, $stamp)) {
            throw new WebhookVerificationException('malformed_timestamp');
        }

        $given = self::signatures($signatureHeader);
        if ($given === null) {
            throw new WebhookVerificationException('malformed_signature');
        }

        $matched = false;
        foreach ($secretList as $secret) {
            $expected = hash_hmac('sha256', $stamp . '.' . $rawBody, $secret, true);
            // Every pair is compared (no early exit): timing says nothing about which entry matched.
            foreach ($given as $candidate) {
                if (hash_equals($expected, $candidate)) {
                    $matched = true;
                }
            }
        }
        if (!$matched) {
            throw new WebhookVerificationException('signature_mismatch');
        }

        if (abs($now - (int) $stamp) > $toleranceSeconds) {
            throw new WebhookVerificationException('timestamp_outside_window');
        }

        return self::event($rawBody) ?? throw new WebhookVerificationException('invalid_body');
    }

    private static function trim(string $text): string
    {
        $trimmed = preg_replace('/\A' . self::JS_SPACE . '+|' . self::JS_SPACE . '+\z/u', '', $text);
        // Not valid UTF-8: the Unicode pattern cannot run, so trim ASCII whitespace only.
        return $trimmed ?? trim($text, "\t\n\x0B\f\r ");
    }

    /** @param string|list<string>|null $value */
    private static function headerText(string|array|null $value): ?string
    {
        if ($value === null) {
            return null;
        }
        $parts = array_filter(array_map(static fn ($v) => self::trim((string) $v), is_array($value) ? $value : [$value]), static fn ($v) => $v !== '');
        return $parts === [] ? null : implode(',', $parts);
    }

    /** @return list<string>|null the v1 signatures (raw bytes); null when not a list of scheme=value */
    private static function signatures(string $header): ?array
    {
        $found = [];
        foreach (explode(',', $header) as $part) {
            $entry = self::trim($part);
            $eq = strpos($entry, '=');
            if ($eq === false || $eq === 0) {
                return null;
            }
            $scheme = substr($entry, 0, $eq);
            $value = substr($entry, $eq + 1);
            if ($scheme !== 'v1') {
                continue; // other schemes are for other verifiers
            }
            if (!preg_match(self::HEX_SIGNATURE, $value)) {
                return null;
            }
            $found[] = (string) hex2bin($value);
        }
        return $found === [] ? null : $found;
    }

    private static function event(string $rawBody): ?WebhookEvent
    {
        $flags = JSON_THROW_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE;
        try {
            // Decoded once as objects to tell {} from [] (an assoc decode cannot), once as arrays for the caller.
            $value = json_decode($rawBody, false, 2147483647, $flags);
            $data = json_decode($rawBody, true, 2147483647, $flags);
        } catch (\JsonException) {
            return null;
        }
        if (!$value instanceof \stdClass) {
            return null;
        }
        $id = $value->id ?? null;
        $type = $value->type ?? null;
        $created = $value->created ?? null;
        if (!is_string($id) || $id === '' || !is_string($type) || $type === '') {
            return null;
        }
        if (!(is_int($created) || is_float($created)) || !is_finite((float) $created) || !(($value->data ?? null) instanceof \stdClass)) {
            return null;
        }
        return new WebhookEvent($id, $type, $created, $data['data']);
    }
}
