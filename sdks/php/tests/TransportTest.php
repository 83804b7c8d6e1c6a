<?php

declare(strict_types=1);

namespace Fincore\Tests;

use Fincore\Client;
use Fincore\FincoreException;
use Fincore\Models\ItemsGetResponse;
use PHPUnit\Framework\TestCase;

/** Retries, backoff and error mapping against a tiny local HTTP stub (no real sleeping). */
final class TransportTest extends TestCase
{
    private const KEY = 'fc_sk_test_abcdefghijklmnop';
    private const ITEM = ['item' => [
        'item_id' => 'it_1', 'institution_id' => 'ins_1', 'institution_name' => 'Bank', 'status' => 'healthy',
        'connector' => 'sandbox', 'error' => null, 'consented_products' => ['transactions'], 'last_successful_sync' => null,
        'created_at' => '2026-01-01T00:00:00Z', 'transactions_update_status' => 'not_ready', 'future_field' => 1,
    ]];

    /** @var list<float> */
    private array $delays = [];
    private ?StubServer $stub = null;

    protected function tearDown(): void
    {
        $this->stub?->close();
    }

    private function client(array $answers, int $maxRetries = 2): Client
    {
        $this->stub = new StubServer($answers);
        return new Client(self::KEY, $this->stub->url, maxRetries: $maxRetries, sleeper: function (float $seconds): void {
            $this->delays[] = $seconds;
        });
    }

    private static function errorBody(string $type, string $code, string $requestId = 'req_1'): array
    {
        return ['error' => ['type' => $type, 'code' => $code, 'message' => 'm', 'request_id' => $requestId]];
    }

    private function caught(callable $call): FincoreException
    {
        try {
            $call();
        } catch (FincoreException $error) {
            return $error;
        }
        self::fail('no FincoreException');
    }

    public function testSendsBearerKeyAndJsonAndDecodesTheModel(): void
    {
        $answer = $this->client([[200, [], self::ITEM]])->items->get(accessToken: 'fc_at_x');
        self::assertInstanceOf(ItemsGetResponse::class, $answer);
        self::assertSame('Bank', $answer->item->institutionName);
        self::assertSame(['future_field' => 1], $answer->item->extraFields);
        [$request] = $this->stub->requests();
        self::assertSame('/v1/items/get', $request['path']);
        self::assertSame('Bearer ' . self::KEY, $request['headers']['authorization']);
        self::assertSame('application/json', $request['headers']['content-type']);
        self::assertSame(['access_token' => 'fc_at_x'], $request['body']);
    }

    public function testOptionalFieldsAreOmittedAndAnEmptyBodyIsAnObject(): void
    {
        $sync = ['added' => [], 'modified' => [], 'removed' => [], 'next_cursor' => 'c', 'has_more' => false, 'transactions_update_status' => 'not_ready'];
        $client = $this->client([[200, [], $sync], [200, [], ['categories' => []]]]);
        $client->transactions->sync(accessToken: 'fc_at_x', count: 10);
        $client->products->categoriesGet();
        [$syncRequest, $categoriesRequest] = $this->stub->requests();
        self::assertSame(['access_token' => 'fc_at_x', 'count' => 10], $syncRequest['body']);
        self::assertSame([], $categoriesRequest['body']);
        self::assertSame('2', $categoriesRequest['headers']['content-length'], 'an empty request is sent as {}');
    }

    public function test429HonoursRetryAfterEvenOnAnUnsafeCall(): void
    {
        $client = $this->client([
            [429, ['Retry-After' => '3'], self::errorBody('rate_limit_error', 'rate_limit_exceeded')],
            [200, [], ['access_token' => 'fc_at_1', 'item_id' => 'it_1', 'rotated' => false]],
        ]);
        self::assertSame('fc_at_1', $client->link->tokenExchange(publicToken: 'public-sandbox-1')->accessToken);
        self::assertSame([3.0], $this->delays);
        self::assertCount(2, $this->stub->requests());
    }

    public function test429WithoutRetryAfterBacksOffExponentiallyThenGivesUp(): void
    {
        $limited = [429, [], self::errorBody('rate_limit_error', 'rate_limit_exceeded')];
        $client = $this->client([$limited, $limited, $limited]);
        $error = $this->caught(fn () => $client->items->get(accessToken: 'fc_at_x'));
        self::assertSame(429, $error->getStatus());
        self::assertSame([0.5, 1.0], $this->delays);
        self::assertCount(3, $this->stub->requests());
    }

    public function testMonthlyQuota429IsNeverRetriedAndKeepsRetryAfter(): void
    {
        foreach (['monthly_api_quota_exceeded', 'monthly_ai_quota_exceeded'] as $code) {
            $this->stub?->close();
            $client = $this->client([
                [429, ['Retry-After' => '30'], self::errorBody('rate_limit_error', $code)],
                [200, [], self::ITEM],
            ]);
            $error = $this->caught(fn () => $client->items->get(accessToken: 'fc_at_x'));
            self::assertSame([429, $code, 30.0], [$error->getStatus(), $error->getErrorCode(), $error->getRetryAfter()]);
            self::assertSame([], $this->delays);
            self::assertCount(1, $this->stub->requests());
        }
    }

    public function testRetryAfterOver60SecondsIsRaisedAtOnceWithItsValue(): void
    {
        $client = $this->client([
            [429, ['Retry-After' => '61'], self::errorBody('rate_limit_error', 'rate_limit_exceeded')],
            [200, [], self::ITEM],
        ]);
        $error = $this->caught(fn () => $client->items->get(accessToken: 'fc_at_x'));
        self::assertSame([429, 61.0], [$error->getStatus(), $error->getRetryAfter()]);
        self::assertSame([], $this->delays);
        self::assertCount(1, $this->stub->requests());
    }

    public function testRetryAfterOfExactly60SecondsIsWaitedOut(): void
    {
        $client = $this->client([
            [503, ['Retry-After' => '60'], self::errorBody('api_error', 'storage_unavailable')],
            [200, [], self::ITEM],
        ]);
        self::assertSame('it_1', $client->items->get(accessToken: 'fc_at_x')->item->itemId);
        self::assertSame([60.0], $this->delays);
    }

    public function test5xxIsRetriedOnASafeCall(): void
    {
        $client = $this->client([
            [500, [], self::errorBody('api_error', 'internal_error')],
            [503, ['Retry-After' => '2'], self::errorBody('api_error', 'storage_unavailable')],
            [200, [], self::ITEM],
        ]);
        self::assertSame('it_1', $client->items->get(accessToken: 'fc_at_x')->item->itemId);
        self::assertSame([0.5, 2.0], $this->delays);
    }

    public function test5xxIsNotRetriedOnAnUnsafeCall(): void
    {
        $client = $this->client([[500, [], self::errorBody('api_error', 'internal_error', 'req_9')], [200, [], []]]);
        $error = $this->caught(fn () => $client->link->tokenExchange(publicToken: 'public-sandbox-1'));
        self::assertSame([500, 'internal_error', 'req_9'], [$error->getStatus(), $error->getErrorCode(), $error->getRequestId()]);
        self::assertCount(1, $this->stub->requests());
        self::assertSame([], $this->delays);
    }

    public function testMaxRetriesIsConfigurable(): void
    {
        $client = $this->client([[503, [], self::errorBody('api_error', 'storage_unavailable')]], maxRetries: 0);
        $this->caught(fn () => $client->items->get(accessToken: 'fc_at_x'));
        self::assertCount(1, $this->stub->requests());
    }

    public function testErrorMappingCarriesEveryField(): void
    {
        $client = $this->client([[400, ['X-Request-Id' => 'req_header'], self::errorBody('invalid_request', 'invalid_field', 'req_body')]]);
        $error = $this->caught(fn () => $client->items->get(accessToken: 'bad'));
        self::assertSame(
            [400, 'invalid_request', 'invalid_field', 'm', 'req_body', null],
            [$error->getStatus(), $error->getType(), $error->getErrorCode(), $error->getMessage(), $error->getRequestId(), $error->getRetryAfter()],
        );
    }

    public function testErrorWithoutJsonBodyStillHasStatusAndRequestId(): void
    {
        $client = $this->client([[502, ['X-Request-Id' => 'req_h'], 'bad gateway']], maxRetries: 0);
        $error = $this->caught(fn () => $client->items->get(accessToken: 'fc_at_x'));
        self::assertSame([502, 'api_error', 'req_h'], [$error->getStatus(), $error->getType(), $error->getRequestId()]);
    }

    public function testNetworkErrorIsRetriedOnlyWhenSafe(): void
    {
        $probe = stream_socket_server('tcp://127.0.0.1:0');
        $closedUrl = 'http://' . stream_socket_get_name($probe, false);
        fclose($probe);
        $client = new Client(self::KEY, $closedUrl, sleeper: function (float $seconds): void {
            $this->delays[] = $seconds;
        });
        $error = $this->caught(fn () => $client->items->get(accessToken: 'fc_at_x'));
        self::assertSame([0, 'connection_error'], [$error->getStatus(), $error->getType()]);
        self::assertSame([0.5, 1.0], $this->delays);
        $this->delays = [];
        $this->caught(fn () => $client->link->tokenExchange(publicToken: 'p'));
        self::assertSame([], $this->delays);
    }

    public function testRequiredRequestFieldsAreRequired(): void
    {
        $this->expectException(\ArgumentCountError::class);
        new \Fincore\Models\LinkTokenExchangeRequest();
    }
}
