#!/usr/bin/python3
"""Writes Keycloak password credentials for the password-context tests (keycloak.json beside this file).

Keycloak's PBKDF2 providers (server-spi-private/.../credential/hash/Pbkdf2PasswordHashProvider.java) store
PBKDF2 of the password's UTF-8 with a 16-byte salt, the realm's iteration count and a key as long as the
stored value; its argon2 provider (Keycloak 25+) the raw argon2 tag, with type, version, memory,
parallelism and hash length in credentialData. This script computes them with Python's hashlib
(OpenSSL) and argon2-cffi's raw argon2 (Debian python3-argon2), and writes each credential as a realm
export does: secretData and credentialData as JSON strings. Cheap iteration counts, plus one at
Keycloak 24's default (pbkdf2-sha512, 210,000 iterations).

    apt-get install -y python3-argon2
    /usr/bin/python3 make-vectors.py > keycloak.json
"""
import base64
import hashlib
import json
import os
import sys
import uuid

import argon2

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "passwords.json"), encoding="utf-8") as f:
    PASSWORDS = json.load(f)["passwords"]

b64 = lambda data: base64.b64encode(data).decode()


def credential(secret, data):
    return json.dumps(
        {
            "id": str(uuid.uuid4()),
            "type": "password",
            "userLabel": "My password",
            "createdDate": 1733000000000,
            "secretData": json.dumps(secret, separators=(",", ":")),
            "credentialData": json.dumps(data, separators=(",", ":")),
        }
    )


def pbkdf2(algorithm, digest, key_bytes, iterations, password):
    salt = os.urandom(16)
    value = hashlib.pbkdf2_hmac(digest, password.encode(), salt, iterations, key_bytes)
    return credential(
        {"value": b64(value), "salt": b64(salt), "additionalParameters": {}},
        {"hashIterations": iterations, "algorithm": algorithm, "additionalParameters": {}},
    )


def argon2id(password):
    salt = os.urandom(16)
    value = argon2.low_level.hash_secret_raw(password.encode(), salt, time_cost=1, memory_cost=64, parallelism=1, hash_len=32, type=argon2.low_level.Type.ID, version=19)
    parameters = {"hashLength": ["32"], "memory": ["64"], "type": ["id"], "version": ["1.3"], "parallelism": ["1"]}
    return credential({"value": b64(value), "salt": b64(salt), "additionalParameters": {}}, {"hashIterations": 1, "algorithm": "argon2", "additionalParameters": parameters})


MAKERS = [
    ("pbkdf2 (HMAC-SHA1) i=1000, 64-byte key", lambda pw: pbkdf2("pbkdf2", "sha1", 64, 1000, pw)),
    ("pbkdf2-sha256 i=1000, 64-byte key (Keycloak before 24)", lambda pw: pbkdf2("pbkdf2-sha256", "sha256", 64, 1000, pw)),
    ("pbkdf2-sha256 i=1000, 32-byte key (Keycloak 24+)", lambda pw: pbkdf2("pbkdf2-sha256", "sha256", 32, 1000, pw)),
    ("pbkdf2-sha512 i=1000, 64-byte key", lambda pw: pbkdf2("pbkdf2-sha512", "sha512", 64, 1000, pw)),
    ("argon2 id m=64 t=1 p=1", argon2id),
]

vectors = []
for maker, make in MAKERS:
    for password in PASSWORDS:
        vectors.append({"maker": maker, "password": password, "encoded": make(password)})
vectors.append({"maker": "Keycloak 24 default: pbkdf2-sha512 i=210000", "password": PASSWORDS[0], "encoded": pbkdf2("pbkdf2-sha512", "sha512", 64, 210000, PASSWORDS[0])})

json.dump({"madeWith": {"python": sys.version.split()[0], "hashlib": "OpenSSL", "argon2-cffi": argon2.__version__}, "vectors": vectors}, sys.stdout, ensure_ascii=False, indent=1)
print()
