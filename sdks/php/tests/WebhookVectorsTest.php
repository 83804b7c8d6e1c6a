<?php

declare(strict_types=1);

namespace Fincore\Tests;

use Fincore\Webhook;
use Fincore\WebhookVerificationException;
use PHPUnit\Framework\TestCase;

/** Every shared webhook vector (sdks/webhook-vectors.json) must give the reference's outcome. */
final class WebhookVectorsTest extends TestCase
{
    private static function vectorsPath(): string
    {
        return getenv('FC_WEBHOOK_VECTORS') ?: dirname(__DIR__, 2) . '/webhook-vectors.json';
    }

    private static function number(int|float|string $value): int|float
    {
        return is_string($value) ? ['NaN' => NAN, 'Infinity' => INF, '-Infinity' => -INF][$value] : $value;
    }

    /** @return array<string, mixed> */
    private static function outcome(array $vector): array
    {
        try {
            $event = Webhook::verify(
                $vector['body'],
                $vector['signature'],
                $vector['timestamp'],
                $vector['secrets'],
                self::number($vector['tolerance_seconds']),
                self::number($vector['now']),
            );
        } catch (WebhookVerificationException $failure) {
            return ['ok' => false, 'reason' => $failure->getReason()];
        } catch (\InvalidArgumentException) {
            return ['error' => 'invalid_argument'];
        }
        return ['ok' => true, 'event_type' => $event->type];
    }

    public function testEveryVectorMatchesTheReference(): void
    {
        $vectors = json_decode((string) file_get_contents(self::vectorsPath()), true, 512, JSON_THROW_ON_ERROR)['vectors'];
        self::assertNotEmpty($vectors);
        foreach ($vectors as $vector) {
            self::assertSame($vector['expected'], self::outcome($vector), $vector['name']);
        }
    }

    public function testRepeatedHeadersArriveAsLists(): void
    {
        $body = '{"id":"evt_1","type":"item.error","created":1700000000,"data":{}}';
        $signature = 'v1=' . hash_hmac('sha256', "1700000000.{$body}", 'whsec_a');
        $event = Webhook::verify($body, ['v1=' . str_repeat('0', 64), $signature], ['1700000000', '1700000000'], 'whsec_a', now: 1700000000);
        self::assertSame('item.error', $event->type);
        self::assertSame([], $event->data);
        try {
            Webhook::verify($body, $signature, '1700000000', ['whsec_b'], now: 1700000000);
            self::fail('a wrong secret verified');
        } catch (WebhookVerificationException $failure) {
            self::assertSame('signature_mismatch', $failure->getReason());
        }
    }
}
