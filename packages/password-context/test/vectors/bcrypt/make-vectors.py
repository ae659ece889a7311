#!/usr/bin/python3
"""Writes bcrypt hashes in the shapes Rails, Auth0 and Okta exports carry (bcrypt.json beside this file).

Made by pyca/bcrypt (Debian python3-bcrypt), an implementation independent of authlab's: `$2a$` as
bcrypt-ruby writes for Rails' has_secure_password, `$2b$` as Auth0's password export carries
(`password_hash`), at cost 4 so a test verifies them in milliseconds. pyca/bcrypt before 5.0, like
bcrypt-ruby and the other C implementations, uses the first 72 bytes of a longer password.

    apt-get install -y python3-bcrypt
    /usr/bin/python3 make-vectors.py > bcrypt.json
"""
import json
import os
import sys

import bcrypt

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "passwords.json"), encoding="utf-8") as f:
    PASSWORDS = json.load(f)["passwords"]

vectors = []
for maker, prefix in [("$2a$ cost 4 (bcrypt-ruby's prefix: Rails, Okta)", b"2a"), ("$2b$ cost 4 (Auth0's export)", b"2b")]:
    for password in PASSWORDS:
        encoded = bcrypt.hashpw(password.encode(), bcrypt.gensalt(4, prefix)).decode()
        vectors.append({"maker": maker, "password": password, "encoded": encoded})

json.dump({"madeWith": {"python": sys.version.split()[0], "bcrypt": bcrypt.__version__}, "vectors": vectors}, sys.stdout, ensure_ascii=False, indent=1)
print()
