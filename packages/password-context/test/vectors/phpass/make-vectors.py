#!/usr/bin/python3
"""Writes phpass portable hashes for the password-context tests (phpass.json beside this file).

Made by passlib's phpass handler (Debian python3-passlib), independent of authlab: `$P$` as WordPress
writes and `$H$` as phpBB 3.0 does, at the lowest cost phpass accepts (2^7) and one at WordPress's own
(2^13, `$P$B`).

    apt-get install -y python3-passlib
    /usr/bin/python3 make-vectors.py > phpass.json
"""
import json
import os
import sys

import passlib
from passlib.hash import phpass

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "passwords.json"), encoding="utf-8") as f:
    PASSWORDS = json.load(f)["passwords"]

vectors = []
for maker, ident in [("$P$ 2^7 (WordPress's ident)", "P"), ("$H$ 2^7 (phpBB 3.0's ident)", "H")]:
    for password in PASSWORDS:
        vectors.append({"maker": maker, "password": password, "encoded": phpass.using(rounds=7, ident=ident).hash(password)})
vectors.append({"maker": "$P$B 2^13 (WordPress's cost)", "password": PASSWORDS[0], "encoded": phpass.using(rounds=13, ident="P").hash(PASSWORDS[0])})

json.dump({"madeWith": {"python": sys.version.split()[0], "passlib": passlib.__version__}, "vectors": vectors}, sys.stdout, ensure_ascii=False, indent=1)
print()
