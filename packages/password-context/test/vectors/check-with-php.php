<?php
// The live cross-check's PHP side: reads {"check": [...], "make": [...]} as JSON on stdin, writes
// {"checked": [bool...], "made": [{"password", "encoded"}...]} on stdout.
//
// check: {"kind", "encoded", "password"} judged by PHP's password_verify (kind "password_verify"), or as
// WordPress 6.8's wp_check_password judges a `$wp` hash (kind "wordpress": wp-includes/pluggable.php).
// make: {"password"}: fresh hashes from password_hash, bcrypt and argon2i at cheap settings.

$request = json_decode(stream_get_contents(STDIN), true);
$checked = [];
foreach ($request['check'] as $c) {
    if ($c['kind'] === 'wordpress') {
        $checked[] = password_verify(base64_encode(hash_hmac('sha384', $c['password'], 'wp-sha384', true)), substr($c['encoded'], 3));
    } else {
        $checked[] = password_verify($c['password'], $c['encoded']);
    }
}
$made = [];
foreach ($request['make'] as $m) {
    $made[] = ['password' => $m['password'], 'encoded' => password_hash($m['password'], PASSWORD_BCRYPT, ['cost' => 4])];
    $made[] = ['password' => $m['password'], 'encoded' => password_hash($m['password'], PASSWORD_ARGON2I, ['memory_cost' => 64, 'time_cost' => 1, 'threads' => 1])];
}
echo json_encode(['checked' => $checked, 'made' => $made]);
