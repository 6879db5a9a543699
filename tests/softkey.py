"""A passkey authenticator in software, for the API and leak tests (a browser's is Chromium's
virtual authenticator, in tests/e2e): it answers the server's options as a platform
authenticator would, with an ES256 key per passkey, a "none" attestation, user presence and
verification, and a counter that goes up at each use. Every field it writes can be bent by a
test (another origin, another challenge, a counter that goes back)."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Kept:
    """One passkey the authenticator keeps."""

    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user: bytes
    count: int = 0


@dataclass
class SoftKey:
    kept: dict[bytes, Kept] = field(default_factory=dict)

    def create(self, options: dict[str, Any], origin: str, **bent: Any) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create(options)`` on a page of ``origin``;
        ``bent``: challenge, type, rp_id, flags or cred (the credential id) to write instead of the
        right ones."""
        rp_id = bent.get("rp_id", options["rp"]["id"])
        cred = bent.get("cred") or secrets.token_bytes(32)
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        auth = (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([bent.get("flags", UP | UV | AT)])
            + struct.pack(">I", 0)
            + bytes(16)  # aaguid: none
            + struct.pack(">H", len(cred))
            + cred
            + cose
        )
        client = self._client(options, origin, "webauthn.create", bent)
        self.kept[cred] = Kept(key, options["rp"]["id"], unb64(options["user"]["id"]))
        return {
            "id": b64(cred),
            "rawId": b64(cred),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client),
                "attestationObject": b64(
                    cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth})
                ),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(
        self, options: dict[str, Any], origin: str, cred: bytes | None = None, **bent: Any
    ) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get(options)`` with the passkey ``cred`` (the
        only one kept for the site if None); ``bent``: challenge, type, origin, count (the
        counter to report), flags, user (the user handle)."""
        if cred is None:
            (cred,) = [c for c, k in self.kept.items() if k.rp_id == options["rpId"]]
        kept = self.kept[cred]
        kept.count += 1
        count = bent.get("count", kept.count)
        auth = (
            hashlib.sha256(bent.get("rp_id", options["rpId"]).encode()).digest()
            + bytes([bent.get("flags", UP | UV)])
            + struct.pack(">I", count)
        )
        client = self._client(options, origin, "webauthn.get", bent)
        signature = kept.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(cred),
            "rawId": b64(cred),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client),
                "authenticatorData": b64(auth),
                "signature": b64(signature),
                "userHandle": b64(bent.get("user", kept.user)),
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    @staticmethod
    def _client(options: dict[str, Any], origin: str, kind: str, bent: dict[str, Any]) -> bytes:
        return json.dumps(
            {
                "type": bent.get("type", kind),
                "challenge": bent.get("challenge", options["challenge"]),
                "origin": origin,
                "crossOrigin": False,
            }
        ).encode()
