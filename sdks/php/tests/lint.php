<?php

// Build check: every PHP file parses, and composer.json is valid JSON with the PSR-4 root.

declare(strict_types=1);

$root = dirname(__DIR__);
$files = [];
$iterator = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($root, FilesystemIterator::SKIP_DOTS));
foreach ($iterator as $file) {
    if ($file->getExtension() === 'php' && !str_contains($file->getPathname(), '/vendor/')) {
        $files[] = $file->getPathname();
    }
}
sort($files);
$failed = 0;
foreach ($files as $path) {
    try {
        // TOKEN_PARSE runs the real parser (what php -l does) without a process per file.
        token_get_all((string) file_get_contents($path), TOKEN_PARSE);
    } catch (ParseError $error) {
        $failed++;
        fwrite(STDERR, "{$path}:{$error->getLine()}: {$error->getMessage()}\n");
    }
}
$composer = json_decode((string) file_get_contents("$root/composer.json"), true);
if (($composer['autoload']['psr-4']['Fincore\\'] ?? null) !== 'src/') {
    fwrite(STDERR, "composer.json: autoload.psr-4 must map Fincore\\ to src/\n");
    $failed++;
}
echo count($files) . " PHP files parsed\n";
exit($failed === 0 ? 0 : 1);
