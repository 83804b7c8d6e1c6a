<?php

declare(strict_types=1);

namespace Fincore\Tests;

/**
 * A tiny HTTP server on 127.0.0.1 in a forked child: answers the queued [status, headers, body]
 * in order (one request per connection) and logs each request (path, headers, JSON body) to a file
 * the test reads after the call. Forking lets the synchronous client run in the test process.
 */
final class StubServer
{
    public readonly string $url;
    private int $pid;
    private string $log;

    /** @param list<array{0: int, 1: array<string, string>, 2: mixed}> $answers */
    public function __construct(array $answers)
    {
        $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $error);
        if ($server === false) {
            throw new \RuntimeException("stub server: {$error}");
        }
        $this->url = 'http://' . stream_socket_get_name($server, false);
        $this->log = (string) tempnam(sys_get_temp_dir(), 'fincore-stub');
        $pid = pcntl_fork();
        if ($pid === -1) {
            throw new \RuntimeException('stub server: fork failed');
        }
        if ($pid === 0) {
            $this->serve($server, $answers);
            exit(0);
        }
        fclose($server);
        $this->pid = $pid;
    }

    /** @return list<array{path: string, headers: array<string, string>, body: mixed}> */
    public function requests(): array
    {
        $lines = array_filter(explode("\n", (string) file_get_contents($this->log)));
        return array_map(static fn ($line) => json_decode($line, true), array_values($lines));
    }

    public function close(): void
    {
        posix_kill($this->pid, SIGKILL);
        pcntl_waitpid($this->pid, $status);
        @unlink($this->log);
    }

    /** @param resource $server */
    private function serve($server, array $answers): void
    {
        while (($socket = @stream_socket_accept($server, 30)) !== false) {
            $head = '';
            while (!str_contains($head, "\r\n\r\n") && ($chunk = fread($socket, 1)) !== false && $chunk !== '') {
                $head .= $chunk;
            }
            $lines = explode("\r\n", trim($head));
            $path = explode(' ', $lines[0])[1] ?? '';
            $headers = [];
            foreach (array_slice($lines, 1) as $line) {
                [$name, $value] = array_map('trim', explode(':', $line, 2)) + [1 => ''];
                $headers[strtolower($name)] = $value;
            }
            $length = (int) ($headers['content-length'] ?? 0);
            $body = '';
            while (strlen($body) < $length && ($chunk = fread($socket, $length - strlen($body))) !== false && $chunk !== '') {
                $body .= $chunk;
            }
            file_put_contents($this->log, json_encode(['path' => $path, 'headers' => $headers, 'body' => json_decode($body, true)]) . "\n", FILE_APPEND);
            [$status, $answerHeaders, $answer] = array_shift($answers) ?? [500, [], []];
            $text = is_string($answer) ? $answer : json_encode($answer);
            $out = "HTTP/1.1 {$status} X\r\nContent-Type: application/json\r\nContent-Length: " . strlen($text) . "\r\nConnection: close\r\n";
            foreach ($answerHeaders as $name => $value) {
                $out .= "{$name}: {$value}\r\n";
            }
            fwrite($socket, $out . "\r\n" . $text);
            fclose($socket);
        }
    }
}
