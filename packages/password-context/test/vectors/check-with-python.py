#!/usr/bin/python3
"""The live cross-check's Python side: reads {"check": [...], "make": [...]} as JSON on stdin, writes
{"checked": [bool...], "made": [{"kind", "password", "encoded"}...]} on stdout.

check: {"kind", "encoded", "password"} judged by the stack's own code: Django's check_password
(kind "django"), passlib's phpass (kind "phpass"), Keycloak's PBKDF2 and argon2 recomputed with
hashlib and argon2-cffi from the credential's own fields (kind "keycloak").
make: {"kind": "django", "password"}: fresh hashes from Django's make_password, one per cheap hasher.
Needs Django 5.2 (pip), pyca/bcrypt, argon2-cffi and passlib (Debian python3-bcrypt, python3-argon2,
python3-passlib).
"""
import base64
import hashlib
import hmac
import json
import sys

import argon2
from django.conf import settings
from passlib.hash import phpass

settings.configure(
    PASSWORD_HASHERS=[
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
        "django.contrib.auth.hashers.Argon2PasswordHasher",
        "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
        "django.contrib.auth.hashers.BCryptPasswordHasher",
        "django.contrib.auth.hashers.ScryptPasswordHasher",
    ]
)
from django.contrib.auth import hashers  # noqa: E402  (needs settings)

KEYCLOAK_PBKDF2 = {"pbkdf2": "sha1", "pbkdf2-sha256": "sha256", "pbkdf2-sha512": "sha512"}
ARGON2_TYPES = {"id": argon2.low_level.Type.ID, "i": argon2.low_level.Type.I, "d": argon2.low_level.Type.D}


def keycloak(encoded, password):
    credential = json.loads(encoded)
    secret = json.loads(credential["secretData"])
    data = json.loads(credential["credentialData"])
    value, salt = base64.b64decode(secret["value"]), base64.b64decode(secret["salt"])
    if data["algorithm"] == "argon2":
        p = {k: v[0] for k, v in data["additionalParameters"].items()}
        computed = argon2.low_level.hash_secret_raw(
            password.encode(), salt, time_cost=data["hashIterations"], memory_cost=int(p["memory"]),
            parallelism=int(p["parallelism"]), hash_len=int(p["hashLength"]), type=ARGON2_TYPES[p["type"]], version=19,
        )
    else:
        computed = hashlib.pbkdf2_hmac(KEYCLOAK_PBKDF2[data["algorithm"]], password.encode(), salt, data["hashIterations"], len(value))
    return hmac.compare_digest(computed, value)


# check_password's `preferred` hasher decides only whether a wrong password also runs harden_runtime
# (up to Django's default work again, to equalise timing): one that matches no stored hash skips it.
NOT_PREFERRED = hashers.MD5PasswordHasher()

CHECKS = {
    "django": lambda encoded, password: hashers.check_password(password, encoded, preferred=NOT_PREFERRED),
    "phpass": lambda encoded, password: phpass.verify(password, encoded),
    "keycloak": keycloak,
}


class Cheap:
    pbkdf2 = type("P", (hashers.PBKDF2PasswordHasher,), {"iterations": 1000})
    argon2 = type("A", (hashers.Argon2PasswordHasher,), {"time_cost": 1, "memory_cost": 64, "parallelism": 1})
    bcrypt_sha256 = type("B", (hashers.BCryptSHA256PasswordHasher,), {"rounds": 4})
    scrypt = type("S", (hashers.ScryptPasswordHasher,), {"work_factor": 16})


request = json.load(sys.stdin)
checked = [bool(CHECKS[c["kind"]](c["encoded"], c["password"])) for c in request["check"]]
made = [
    {"kind": "django", "password": m["password"], "encoded": hashers.make_password(m["password"], hasher=hasher())}
    for m in request["make"]
    for hasher in (Cheap.pbkdf2, Cheap.argon2, Cheap.bcrypt_sha256, Cheap.scrypt)
]
json.dump({"checked": checked, "made": made}, sys.stdout)
