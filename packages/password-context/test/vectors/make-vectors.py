#!/usr/bin/python3
"""Writes mixed-format password hashes made by implementations independent of authlab.

Run with Debian's Python and its packages (apt-get install python3-bcrypt python3-argon2
python3-passlib):  /usr/bin/python3 make-vectors.py > mixed-formats.json

Costs are deliberately tiny so that a thousand verifies take seconds in a test; the formats, not the
costs, are what the password context has to route. Passwords are drawn from a seeded generator so the
file can be remade, and never exceed bcrypt's 72-byte key.
"""
import base64
import hashlib
import json
import os
import random
import sys

import argon2
import bcrypt
import passlib
from passlib.hash import bcrypt as passlib_bcrypt
from passlib.hash import pbkdf2_sha256 as passlib_pbkdf2
from passlib.hash import scrypt as passlib_scrypt

rng = random.Random(20261201)
ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !#%&()*+,-./:;<=>?@[]^_{|}~"
    "äöüßéñçøåłžčšğıя中文字🔑"
)


def password():
    while True:
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 40)))
        if len(text.encode()) <= 72:
            return text


def b64(data):
    return base64.b64encode(data).decode().rstrip("=")


def phc_pbkdf2(pw):
    # The PHC form authlab writes, computed by OpenSSL through hashlib rather than by authlab.
    salt = os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", pw.encode(), salt, 1000, 32)
    return f"$pbkdf2-sha256$i=1000${b64(salt)}${b64(digest)}"


argon = argon2.PasswordHasher(time_cost=1, memory_cost=64, parallelism=1, type=argon2.Type.ID)
MAKERS = [
    ("bcrypt $2b$ (pyca bcrypt)", 150, lambda pw: bcrypt.hashpw(pw.encode(), bcrypt.gensalt(4)).decode()),
    ("bcrypt $2a$ (pyca bcrypt)", 100, lambda pw: bcrypt.hashpw(pw.encode(), bcrypt.gensalt(4, b"2a")).decode()),
    ("bcrypt $2y$ (passlib)", 50, lambda pw: passlib_bcrypt.using(rounds=4, ident="2y").hash(pw)),
    ("argon2id (argon2-cffi)", 200, argon.hash),
    ("scrypt (passlib)", 200, lambda pw: passlib_scrypt.using(rounds=4, block_size=8).hash(pw)),
    ("pbkdf2_sha256 (passlib)", 150, lambda pw: passlib_pbkdf2.using(rounds=1000).hash(pw)),
    ("$pbkdf2-sha256$ PHC (hashlib)", 150, phc_pbkdf2),
]

vectors = []
for maker, count, make in MAKERS:
    for _ in range(count):
        pw = password()
        vectors.append({"maker": maker, "password": pw, "encoded": make(pw)})
rng.shuffle(vectors)

json.dump(
    {
        "madeWith": {
            "python": sys.version.split()[0],
            "bcrypt": bcrypt.__version__,
            "argon2-cffi": argon2.__version__,
            "passlib": passlib.__version__,
        },
        "vectors": vectors,
    },
    sys.stdout,
    ensure_ascii=False,
    indent=1,
)
print()
