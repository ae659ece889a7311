<?php
// Writes PHP-made password hashes for the password-context tests (php.json beside this file).
//
// Made by PHP's own password_hash (Debian php-cli, PHP 8.2 with libargon2) at cheap parameters, and
// WordPress 6.8's `$wp$` bcrypt computed as
// wp-includes/pluggable.php wp_hash_password() does (a SHA-384 HMAC pre-hash of the trimmed password).
//
//     apt-get install -y php-cli
//     php make-vectors.php > php.json

$passwords = json_decode(file_get_contents(__DIR__ . '/../passwords.json'), true)['passwords'];

function wordpress_hash(string $password): string {
    $password_to_hash = base64_encode(hash_hmac('sha384', trim($password), 'wp-sha384', true));
    return '$wp' . password_hash($password_to_hash, PASSWORD_BCRYPT, ['cost' => 4]);
}

$cheap_argon = ['memory_cost' => 64, 'time_cost' => 1, 'threads' => 1];
$makers = [
    'password_hash PASSWORD_BCRYPT cost 4' => fn ($p) => password_hash($p, PASSWORD_BCRYPT, ['cost' => 4]),
    'password_hash PASSWORD_ARGON2I m=64 t=1 p=1' => fn ($p) => password_hash($p, PASSWORD_ARGON2I, $cheap_argon),
    'password_hash PASSWORD_ARGON2ID m=64 t=1 p=1' => fn ($p) => password_hash($p, PASSWORD_ARGON2ID, $cheap_argon),
];

$vectors = [];
foreach ($makers as $maker => $make) {
    foreach ($passwords as $password) {
        $vectors[] = ['maker' => $maker, 'password' => $password, 'encoded' => $make($password)];
    }
}
// wp_check_password does not trim: the password WordPress accepts for a `$wp` hash is the trimmed one.
foreach ($passwords as $password) {
    $vectors[] = ['maker' => 'WordPress 6.8 wp_hash_password ($wp$, cost 4)', 'password' => trim($password), 'encoded' => wordpress_hash($password)];
}

echo json_encode(['madeWith' => ['php' => PHP_VERSION], 'vectors' => $vectors], JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
