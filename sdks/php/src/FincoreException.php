<?php

declare(strict_types=1);

namespace Fincore;

/**
 * The one exception every API call throws: an error answer, or a request that got no answer.
 *
 * getStatus():     HTTP status (0 when no answer arrived: network error or timeout)
 * getType(), getErrorCode(): from the API's error table (invalid_request / invalid_field, ...);
 *                  without an answer, type connection_error and code timeout or network_error
 * getMessage():    the human-readable explanation
 * getRequestId():  the server's request id (quote it to support); null without an answer
 * getRetryAfter(): seconds from the Retry-After header, when sent
 * getDocumentationUrl(): where the code is explained ({base_url}/docs/errors#<code>); null without an error body
 * getDisplayMessage():   a sentence safe to show your end user; null when the error is the integration's to fix
 * (Exception::getCode() is the HTTP status too.)
 */
final class FincoreException extends \RuntimeException
{
    /** @param array<string, mixed>|null $body */
    public function __construct(
        private readonly int $status,
        private readonly string $type,
        private readonly string $errorCode,
        string $message,
        private readonly ?string $requestId = null,
        private readonly ?float $retryAfter = null,
        private readonly ?array $body = null,
        private readonly ?string $documentationUrl = null,
        private readonly ?string $displayMessage = null,
    ) {
        parent::__construct($message, $status);
    }

    public function getStatus(): int
    {
        return $this->status;
    }

    public function getType(): string
    {
        return $this->type;
    }

    public function getErrorCode(): string
    {
        return $this->errorCode;
    }

    public function getRequestId(): ?string
    {
        return $this->requestId;
    }

    public function getRetryAfter(): ?float
    {
        return $this->retryAfter;
    }

    public function getDocumentationUrl(): ?string
    {
        return $this->documentationUrl;
    }

    public function getDisplayMessage(): ?string
    {
        return $this->displayMessage;
    }

    /** @return array<string, mixed>|null The decoded error answer. */
    public function getBody(): ?array
    {
        return $this->body;
    }

    public function __toString(): string
    {
        return sprintf('%s: %d %s/%s: %s%s', self::class, $this->status, $this->type, $this->errorCode, $this->getMessage(), $this->requestId ? " (request {$this->requestId})" : '');
    }
}
