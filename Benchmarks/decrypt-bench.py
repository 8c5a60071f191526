#!/usr/bin/env python3
"""The Python side of decrypt-bench.sh.

    decrypt-bench.py make FILE   writes the shared vectors (a 3 KB WebPush aes128gcm body and a
                                 3 KB JWE dir token, with their keys) to FILE
    decrypt-bench.py run FILE [seconds]    decrypts them with `cryptography` and prints decryptions per CPU second
"""
import base64
import json
import os
import struct
import sys
import time

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

SIZE = 3000


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def point(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def hkdf(salt, ikm, info, length):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def make(path):
    receiver = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    sender = ec.generate_private_key(ec.SECP256R1())
    plaintext = json.dumps({"aps": {"alert": {"title": "Bench", "body": "x" * (SIZE - 60)}}}).encode()
    salt = os.urandom(16)
    secret = sender.exchange(ec.ECDH(), receiver.public_key())
    ikm = hkdf(auth, secret, b"WebPush: info\x00" + point(receiver) + point(sender), 32)
    key = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    body = salt + struct.pack("!L", 4096) + bytes([65]) + point(sender) + AESGCM(key).encrypt(nonce, plaintext + b"\x02", None)

    cek = os.urandom(32)
    header = b64u(json.dumps({"alg": "dir", "enc": "A256GCM", "kid": "bench-oct"}).encode())
    iv = os.urandom(12)
    sealed = AESGCM(cek).encrypt(iv, plaintext, header.encode())
    token = ".".join([header, "", b64u(iv), b64u(sealed[:-16]), b64u(sealed[-16:])])

    numbers = receiver.private_numbers()
    keys = {"keys": [
        {"kty": "EC", "crv": "P-256", "kid": "bench-push",
         "x": b64u(numbers.public_numbers.x.to_bytes(32, "big")), "y": b64u(numbers.public_numbers.y.to_bytes(32, "big")),
         "d": b64u(numbers.private_value.to_bytes(32, "big")), "auth": b64u(auth)},
        {"kty": "oct", "kid": "bench-oct", "k": b64u(cek)},
    ]}
    with open(path, "w") as out:
        json.dump({"keys": keys, "webpush": b64u(body), "jwe": token, "plaintextBytes": len(plaintext)}, out)


def decrypt_webpush(text, private_key, receiver_point, auth):
    body = unb64u(text)
    salt, rs, idlen = body[:16], struct.unpack("!L", body[16:20])[0], body[20]
    sender_point = body[21:21 + idlen]
    records = body[21 + idlen:]
    sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_point)
    secret = private_key.exchange(ec.ECDH(), sender)
    ikm = hkdf(auth, secret, b"WebPush: info\x00" + receiver_point + sender_point, 32)
    key = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    assert len(records) <= rs
    plaintext = AESGCM(key).decrypt(nonce, records, None).rstrip(b"\x00")
    assert plaintext[-1] == 2
    return plaintext[:-1]


def decrypt_jwe(token, keys_by_kid):
    header_b64, _, iv, ciphertext, tag = token.split(".")
    header = json.loads(unb64u(header_b64))
    assert header["alg"] == "dir" and header["enc"] == "A256GCM"
    return AESGCM(keys_by_kid[header["kid"]]).decrypt(unb64u(iv), unb64u(ciphertext) + unb64u(tag), header_b64.encode("ascii"))


def rate(function, seconds=2.0):
    """Calls per CPU second of this thread (time other processes take is not counted)."""
    function()
    count, start = 0, time.thread_time()
    while True:
        for _ in range(50):
            function()
        count += 50
        elapsed = time.thread_time() - start
        if elapsed >= seconds:
            return count / elapsed


def run(path):
    with open(path) as source:
        data = json.load(source)
    push, octkey = data["keys"]["keys"]
    d = int.from_bytes(unb64u(push["d"]), "big")
    private_key = ec.derive_private_key(d, ec.SECP256R1())
    receiver_point = point(private_key)
    auth = unb64u(push["auth"])
    keys_by_kid = {octkey["kid"]: unb64u(octkey["k"])}
    assert len(decrypt_webpush(data["webpush"], private_key, receiver_point, auth)) == data["plaintextBytes"]
    assert len(decrypt_jwe(data["jwe"], keys_by_kid)) == data["plaintextBytes"]
    # Five short interleaved windows, best kept, as the Swift side does.
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
    measurements = {
        "webpush": lambda: decrypt_webpush(data["webpush"], private_key, receiver_point, auth),
        "jwe": lambda: decrypt_jwe(data["jwe"], keys_by_kid),
    }
    best = {}
    for _ in range(5):
        for name, function in measurements.items():
            best[name] = max(best.get(name, 0), rate(function, seconds / 5))
    print(json.dumps(best))


if __name__ == "__main__":
    {"make": make, "run": run}[sys.argv[1]](sys.argv[2])
