<?php

// PSR-4 autoloader for use without Composer: require 'sdks/php/src/autoload.php';

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $prefix = 'Fincore\\';
    if (!str_starts_with($class, $prefix)) {
        return;
    }
    $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
