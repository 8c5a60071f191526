#!/usr/bin/env python3
"""Makes decrypt-plugin test vectors with independent implementations.

WebPush aes128gcm and aesgcm bodies come from http_ece (the library pywebpush uses),
JWE tokens from jwcrypto, all from freshly generated keys. Padded bodies, which http_ece
cannot produce, are made here with `cryptography` and then checked with http_ece.decrypt.

    pip install http-ece jwcrypto cryptography
    python3 make-vectors.py > vectors.json
    python3 make-vectors.py --samples ../../../Samples   # the sample key set and payloads

The output holds private keys made for this file only; they protect nothing.
"""
import base64
import json
import os
import struct
import sys

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from jwcrypto import jwe, jwk


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def point(private_key) -> bytes:
    return private_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def ec_jwk(kid: str, private_key, auth: bytes | None = None) -> dict:
    numbers = private_key.private_numbers()
    key = {
        "kty": "EC", "crv": "P-256", "kid": kid,
        "x": b64u(numbers.public_numbers.x.to_bytes(32, "big")),
        "y": b64u(numbers.public_numbers.y.to_bytes(32, "big")),
        "d": b64u(numbers.private_value.to_bytes(32, "big")),
    }
    if auth is not None:
        key["auth"] = b64u(auth)
    return key


def hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def webpush_ikm(sender, receiver_point: bytes, auth: bytes) -> bytes:
    receiver = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), receiver_point)
    secret = sender.exchange(ec.ECDH(), receiver)
    return hkdf(auth, secret, b"WebPush: info\x00" + receiver_point + point(sender), 32)


def padded_aes128gcm(plaintext: bytes, receiver_point: bytes, auth: bytes, rs: int, pad: int) -> bytes:
    """RFC 8291 body whose records carry `pad` zero bytes of padding each (http_ece adds none)."""
    sender = ec.generate_private_key(ec.SECP256R1())
    salt = os.urandom(16)
    ikm = webpush_ikm(sender, receiver_point, auth)
    key = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    per_record = rs - 16 - 1 - pad
    assert per_record > 0
    chunks = [plaintext[i:i + per_record] for i in range(0, len(plaintext), per_record)] or [b""]
    body = b""
    for sequence, chunk in enumerate(chunks):
        last = sequence == len(chunks) - 1
        record = chunk + (b"\x02" if last else b"\x01") + b"\x00" * pad
        if not last:
            assert len(record) + 16 == rs
        iv = nonce[:4] + struct.pack("!Q", struct.unpack("!Q", nonce[4:])[0] ^ sequence)
        body += AESGCM(key).encrypt(iv, record, None)
    return salt + struct.pack("!L", rs) + bytes([65]) + point(sender) + body, sender


def padded_aesgcm(plaintext: bytes, receiver_point: bytes, auth: bytes, rs: int, pad: int):
    """Legacy aesgcm body whose records start with `pad` bytes of padding (http_ece adds none)."""
    sender = ec.generate_private_key(ec.SECP256R1())
    salt = os.urandom(16)
    receiver = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), receiver_point)
    secret = sender.exchange(ec.ECDH(), receiver)
    ikm = hkdf(auth, secret, b"Content-Encoding: auth\x00", 32)
    context = b"P-256\x00" + struct.pack("!H", 65) + receiver_point + struct.pack("!H", 65) + point(sender)
    key = hkdf(salt, ikm, b"Content-Encoding: aesgcm\x00" + context, 16)
    nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00" + context, 12)
    per_record = rs - 2 - pad
    chunks = [plaintext[i:i + per_record] for i in range(0, len(plaintext) + 1, per_record)]
    body = b""
    for sequence, chunk in enumerate(chunks):
        iv = nonce[:4] + struct.pack("!Q", struct.unpack("!Q", nonce[4:])[0] ^ sequence)
        body += AESGCM(key).encrypt(iv, struct.pack("!H", pad) + b"\x00" * pad + chunk, None)
    return body, salt, sender


def merge_patch(target, patch):
    if not isinstance(patch, dict):
        return patch
    target = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            target.pop(key, None)
        else:
            target[key] = merge_patch(target.get(key), value)
    return target


BASE = {"aps": {"alert": {"title": "New message", "body": "(encrypted)"}, "mutable-content": 1}, "id": 29273432613945685}


def expected_payload(enc_field: str, plaintext: bytes) -> dict:
    payload = {k: v for k, v in BASE.items() if k != enc_field}
    try:
        patch = json.loads(plaintext.decode("utf-8"))
    except ValueError:
        patch = None
    if isinstance(patch, dict):
        return merge_patch(payload, patch)
    payload["aps"] = dict(payload["aps"])
    payload["aps"]["alert"] = dict(payload["aps"]["alert"], body=plaintext.decode("utf-8"))
    return payload


def main():
    webpush_a = ec.generate_private_key(ec.SECP256R1())
    webpush_b = ec.generate_private_key(ec.SECP256R1())
    auth_a, auth_b = os.urandom(16), os.urandom(16)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    oct128, oct256 = os.urandom(16), os.urandom(32)
    keys = [
        ec_jwk("push-a", webpush_a, auth_a),
        ec_jwk("push-b", webpush_b, auth_b),
        ec_jwk("ec-1", ec_key),
        {"kty": "oct", "kid": "oct-128", "k": b64u(oct128)},
        {"kty": "oct", "kid": "oct-256", "k": b64u(oct256)},
    ]
    jwks = jwk.JWKSet.from_json(json.dumps({"keys": keys}))

    texts = {
        "ascii": b"Hello from the relay",
        "multibyte": "Grüße aus Zürich — ça va? 日本語のテキスト".encode(),
        "emoji": "🎉🔐👩‍👩‍👧 party at 8 🍕".encode(),
        "json": json.dumps({"aps": {"alert": {"title": "Alice", "body": "Lunch at 1? 🍜"}}, "sender": "alice@example.com"}, ensure_ascii=False).encode(),
        "json-remove": json.dumps({"id": None, "thread": "t-42", "aps": {"alert": {"subtitle": "Ünïcödé"}}}).encode(),
        "long": ("Lorem ipsum dolor sit amet, ünïcødé 🌍. " * 40).encode(),
    }

    vectors = []

    def add(name, scheme, enc, plaintext, **extra):
        vectors.append({
            "name": name, "scheme": scheme,
            "payload": dict(BASE, enc=enc),
            "plaintext": b64u(plaintext),
            "expected": expected_payload("enc", plaintext),
            **extra,
        })

    points = {"push-a": (webpush_a, auth_a), "push-b": (webpush_b, auth_b)}
    # aes128gcm through http_ece, as pywebpush sends it: the sender's key is the header key id.
    for kid, rs, text_name, named in [
        ("push-a", 4096, "ascii", False), ("push-b", 4096, "multibyte", False), ("push-a", 4096, "emoji", True),
        ("push-a", 4096, "json", False), ("push-b", 25, "json", True), ("push-a", 18, "emoji", False),
        ("push-b", 64, "long", False), ("push-a", 4096, "json-remove", False),
    ]:
        receiver, auth = points[kid]
        sender = ec.generate_private_key(ec.SECP256R1())
        body = http_ece.encrypt(texts[text_name], private_key=sender, dh=point(receiver), auth_secret=auth, rs=rs, version="aes128gcm")
        assert http_ece.decrypt(body, private_key=receiver, auth_secret=auth, version="aes128gcm") == texts[text_name]
        enc = {"scheme": "aes128gcm", "body": b64u(body), "kid": kid} if named else b64u(body)
        add(f"aes128gcm http_ece {kid} rs={rs} {text_name}{' named' if named else ''}", "aes128gcm", enc, texts[text_name])

    # aes128gcm with padding in every record, checked by http_ece.
    for rs, pad, text_name in [(4096, 100, "json"), (40, 3, "multibyte"), (30, 12, "emoji")]:
        body, _ = padded_aes128gcm(texts[text_name], point(webpush_a), auth_a, rs, pad)
        assert http_ece.decrypt(body, private_key=webpush_a, auth_secret=auth_a, version="aes128gcm") == texts[text_name]
        # Padded base64url, and once standard base64, which senders also use.
        encoded = base64.b64encode(body) if pad == 3 else base64.urlsafe_b64encode(body)
        add(f"aes128gcm padded rs={rs} pad={pad} {text_name}", "aes128gcm", encoded.decode(), texts[text_name])

    # Legacy aesgcm through http_ece, its header values carried as members.
    for kid, rs, text_name, form in [
        ("push-a", 4096, "ascii", "members"), ("push-b", 4096, "json", "headers"),
        ("push-a", 20, "emoji", "members"), ("push-b", 4096, "multibyte", "members-no-kid"),
    ]:
        receiver, auth = points[kid]
        sender = ec.generate_private_key(ec.SECP256R1())
        salt = os.urandom(16)
        body = http_ece.encrypt(texts[text_name], salt=salt, private_key=sender, dh=point(receiver), auth_secret=auth, rs=rs, version="aesgcm")
        assert http_ece.decrypt(body, salt=salt, private_key=receiver, dh=point(sender), auth_secret=auth, rs=rs, version="aesgcm") == texts[text_name]
        if form == "headers":
            enc = {"scheme": "aesgcm", "body": b64u(body), "kid": kid,
                   "encryption": f"salt={b64u(salt)};rs={rs}", "crypto-key": f"dh={b64u(point(sender))};p256ecdsa=BOgus"}
        else:
            enc = {"scheme": "aesgcm", "body": b64u(body), "salt": b64u(salt), "dh": b64u(point(sender)), "rs": rs}
            if form == "members":
                enc["kid"] = kid
        add(f"aesgcm http_ece {kid} rs={rs} {text_name} {form}", "aesgcm", enc, texts[text_name])

    for rs, pad in [(4096, 40), (24, 5)]:
        body, salt, sender = padded_aesgcm(texts["emoji"], point(webpush_b), auth_b, rs, pad)
        assert http_ece.decrypt(body, salt=salt, private_key=webpush_b, dh=point(sender), auth_secret=auth_b, rs=rs, version="aesgcm") == texts["emoji"]
        add(f"aesgcm padded rs={rs} pad={pad} emoji", "aesgcm",
            {"scheme": "aesgcm", "body": b64u(body), "salt": b64u(salt), "dh": b64u(point(sender)), "rs": rs, "kid": "push-b"}, texts["emoji"])

    # JWE compact through jwcrypto.
    jwe_cases = []
    for enc_alg in ["A128GCM", "A256GCM"]:
        jwe_cases += [
            ("dir", enc_alg, "oct-128" if enc_alg == "A128GCM" else "oct-256", {}),
            ("A256KW", enc_alg, "oct-256", {}),
            ("ECDH-ES", enc_alg, "ec-1", {}),
            ("ECDH-ES", enc_alg, "push-a", {"apu": b64u(b"Alice"), "apv": b64u(b"Bob")}),
            ("ECDH-ES+A256KW", enc_alg, "ec-1", {}),
            ("ECDH-ES+A256KW", enc_alg, "push-b", {"apu": b64u(b"relay"), "apv": b64u(b"device-7")}),
        ]
    for index, (alg, enc_alg, kid, extra) in enumerate(jwe_cases):
        text_name = list(texts)[index % len(texts)]
        header = {"alg": alg, "enc": enc_alg, "kid": kid, **extra}
        token = jwe.JWE(texts[text_name], protected=json.dumps(header))
        token.add_recipient(jwks.get_key(kid))
        compact = token.serialize(compact=True)
        check = jwe.JWE()
        check.deserialize(compact, key=jwks.get_key(kid))
        assert check.payload == texts[text_name]
        add(f"jwe {alg} {enc_alg} {kid} {text_name}{' apu/apv' if extra else ''}", "jwe", compact, texts[text_name])

    # A JWE without kid: the plugin tries every key that fits.
    token = jwe.JWE(texts["json"], protected=json.dumps({"alg": "dir", "enc": "A256GCM"}))
    token.add_recipient(jwks.get_key("oct-256"))
    add("jwe dir A256GCM without kid", "jwe", token.serialize(compact=True), texts["json"])

    json.dump({
        "comment": "Made by make-vectors.py with http_ece and jwcrypto; throwaway keys that protect nothing.",
        "keys": {"keys": keys},
        "vectors": vectors,
    }, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


def samples(folder: str):
    """A throwaway sample key set and two payloads encrypted for it, for docs and demos."""
    push = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    oct256 = os.urandom(32)
    keys = [ec_jwk("sample-push", push, auth), ec_jwk("sample-ec", ec_key),
            {"kty": "oct", "kid": "sample-oct", "k": b64u(oct256)}]
    keyset = {"_comment": "SAMPLE KEYS, published in the repository: use them only to try the samples; "
                          "make your own with `nse keys`.", "keys": keys}
    with open(os.path.join(folder, "keys.jwks.json"), "w") as out:
        json.dump(keyset, out, indent=2)
        out.write("\n")

    def payload(enc):
        return {"aps": {"alert": {"title": "New message", "body": "(encrypted)"}, "mutable-content": 1}, "enc": enc}

    message = json.dumps({"aps": {"alert": {"title": "Alice", "body": "Are we still on for lunch? 🥗"}},
                          "sender": "alice@example.com"}, ensure_ascii=False).encode()
    sender = ec.generate_private_key(ec.SECP256R1())
    body = http_ece.encrypt(message, private_key=sender, dh=point(push), auth_secret=auth, version="aes128gcm")
    with open(os.path.join(folder, "encrypted-webpush.apns"), "w") as out:
        json.dump(payload(b64u(body)), out, indent=2, ensure_ascii=False)
        out.write("\n")

    jwks = jwk.JWKSet.from_json(json.dumps({"keys": keys}))
    token = jwe.JWE("Your code is 482913 — it expires in 10 minutes.".encode(),
                    protected=json.dumps({"alg": "ECDH-ES", "enc": "A256GCM", "kid": "sample-ec"}))
    token.add_recipient(jwks.get_key("sample-ec"))
    with open(os.path.join(folder, "encrypted-jwe.apns"), "w") as out:
        json.dump(payload(token.serialize(compact=True)), out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--samples":
        samples(sys.argv[2])
    else:
        main()
