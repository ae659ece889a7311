#!/usr/bin/python3
"""Writes Django-made password hashes for the password-context tests (django.json beside this file).

Made by Django's own hashers (django.contrib.auth.hashers, Django 5.2) through make_password, with
cheap parameters so a test verifies them in milliseconds, plus one hash at Django 5.2's default
(pbkdf2_sha256, 1,000,000 iterations). Django's argon2 and
bcrypt hashers use argon2-cffi and pyca/bcrypt (Debian python3-argon2, python3-bcrypt).

    apt-get install -y python3-bcrypt python3-argon2 python3-pip
    /usr/bin/python3 -m pip install --break-system-packages django==5.2.17
    /usr/bin/python3 make-vectors.py > django.json
"""
import json
import os
import sys

import argon2
import bcrypt
import django
from django.conf import settings

settings.configure(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"])
from django.contrib.auth import hashers  # noqa: E402  (needs settings)


class CheapPBKDF2(hashers.PBKDF2PasswordHasher):
    iterations = 1000


class CheapPBKDF2SHA1(hashers.PBKDF2SHA1PasswordHasher):
    iterations = 1000


class CheapArgon2(hashers.Argon2PasswordHasher):
    time_cost = 1
    memory_cost = 64
    parallelism = 2


class CheapArgon2i(CheapArgon2):
    """Django 1.10 to 3.1 wrote argon2i; their stored hashes are still in user tables."""

    def params(self):
        params = super().params()
        params.type = argon2.low_level.Type.I
        return params


class CheapBCryptSHA256(hashers.BCryptSHA256PasswordHasher):
    rounds = 4


class CheapBCrypt(hashers.BCryptPasswordHasher):
    rounds = 4


class CheapScrypt(hashers.ScryptPasswordHasher):
    work_factor = 2**4
    parallelism = 2


HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "passwords.json"), encoding="utf-8") as f:
    PASSWORDS = json.load(f)["passwords"]

MAKERS = [
    ("pbkdf2_sha256 i=1000", CheapPBKDF2()),
    ("pbkdf2_sha1 i=1000", CheapPBKDF2SHA1()),
    ("argon2 argon2id m=64 t=1 p=2", CheapArgon2()),
    ("argon2 argon2i m=64 t=1 p=2", CheapArgon2i()),
    ("bcrypt_sha256 cost 4", CheapBCryptSHA256()),
    ("bcrypt cost 4", CheapBCrypt()),
    ("scrypt N=16 r=8 p=2", CheapScrypt()),
]

vectors = []
for maker, hasher in MAKERS:
    for password in PASSWORDS:
        vectors.append({"maker": maker, "password": password, "encoded": hashers.make_password(password, hasher=hasher)})
vectors.append(
    {
        "maker": "Django 5.2 default: pbkdf2_sha256 i=1000000",
        "password": PASSWORDS[0],
        "encoded": hashers.make_password(PASSWORDS[0], hasher=hashers.PBKDF2PasswordHasher()),
    }
)

json.dump(
    {
        "madeWith": {
            "python": sys.version.split()[0],
            "django": django.__version__,
            "argon2-cffi": argon2.__version__,
            "bcrypt": bcrypt.__version__,
        },
        "vectors": vectors,
    },
    sys.stdout,
    ensure_ascii=False,
    indent=1,
)
print()
