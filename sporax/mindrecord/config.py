"""MindRecord file encryption: ``set_enc_key``, ``set_enc_mode``, ``set_dec_mode``.

With a key set, :class:`FileWriter` (and ``Dataset.save``) encrypt each ``.mindrecord`` file and its ``.db``
index after writing them, and the readers decrypt them, in MindSpore 2.10's encrypted layout, so files
encrypted by either are read by the other:

- the file is cut into blocks of at most 64 MiB; each block is stored as its length (4 bytes, big-endian)
  followed by the block's cipher record: a magic number (``0x7F3A5ED8``, little-endian), the 16-byte GCM tag,
  the record's length, the IV's length (16) and the IV (AES-GCM uses its first 12 bytes), the cipher text's
  length and the cipher text (lengths 4 bytes, little-endian);
- a zero length, the mode (``b"AES-GCM"``, or ``b"UDF-ENC"`` for a user function) and ``b"ENCRYPT"`` end it.

A user function given to ``set_enc_mode`` is called as ``enc_mode(src_file, file_size, dst_file, key)`` and
the one given to ``set_dec_mode`` as ``dec_mode(src_file, file_size, dst_file, key)`` (``file_size`` without
the trailing ``ENCRYPT``), as in MindSpore. AES-GCM needs the ``cryptography`` package
(``pip install "sporax[crypto]"``).
"""

from __future__ import annotations

import io
import os
import struct

from .._checkparam import check_cipher_mode, check_enc_key

__all__ = ["set_enc_key", "set_enc_mode", "set_dec_mode"]

_ENC_KEY: str | None = None
_ENC_MODE = "AES-GCM"
_DEC_MODE = None

END_FLAG = b"ENCRYPT"
_BLOCK = 64 * 1024 * 1024
_MAGIC = 0x7F3A5ED8
_I32 = struct.Struct("<i")
_BE32 = struct.Struct(">i")


def set_enc_key(enc_key) -> None:
    """Set the key (a str of 16, 24 or 32 characters) MindRecord files are encrypted and decrypted with;
    ``None`` turns encryption off.

    Raises:
        ValueError: ``enc_key`` is not a str, or its length is not 16, 24 or 32.
    """
    global _ENC_KEY
    if enc_key is None:
        _ENC_KEY = None
        return
    _ENC_KEY = check_enc_key(enc_key)


def set_enc_mode(enc_mode="AES-GCM") -> None:
    """Set the encryption: ``"AES-GCM"`` or a function ``enc_mode(src_file, file_size, dst_file, key)``.

    Raises:
        ValueError: ``enc_mode`` is neither ``"AES-GCM"`` nor callable.
    """
    global _ENC_MODE
    if callable(enc_mode):
        _ENC_MODE = enc_mode
        return
    _ENC_MODE = check_cipher_mode(enc_mode, "enc_mode")


def set_dec_mode(dec_mode="AES-GCM") -> None:
    """Set the decryption: ``"AES-GCM"``, a function ``dec_mode(src_file, file_size, dst_file, key)``, or
    ``None`` (decrypt as ``set_enc_mode`` says).

    Raises:
        ValueError: ``dec_mode`` is neither ``"AES-GCM"``, ``None`` nor callable.
    """
    global _DEC_MODE
    if dec_mode is None or callable(dec_mode):
        _DEC_MODE = dec_mode
        return
    _DEC_MODE = check_cipher_mode(dec_mode, "dec_mode")


def enc_key() -> str | None:
    """The key set by :func:`set_enc_key` (``None``: files are neither encrypted nor decrypted)."""
    return _ENC_KEY


def _dec_mode():
    if _DEC_MODE is None:
        if callable(_ENC_MODE):
            raise RuntimeError("You use custom encryption, so you must also define custom decryption.")
        return _ENC_MODE
    return _DEC_MODE


def _mode_tag(mode) -> bytes:
    return b"UDF-ENC" if callable(mode) else mode.encode()


def _aesgcm(key: str):
    try:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    except ImportError:
        raise ImportError(
            'MindRecord encryption with AES-GCM needs the cryptography package: pip install "sporax[crypto]"'
        ) from None
    return AESGCM(key.encode())


def _encrypt_block(aes, data: bytes) -> bytes:
    iv = os.urandom(16)
    sealed = aes.encrypt(iv[:12], data, None)
    cipher, tag = sealed[:-16], sealed[-16:]
    body = _I32.pack(16) + iv + _I32.pack(len(cipher)) + cipher
    return _I32.pack(_MAGIC) + tag + _I32.pack(len(body)) + body


def _decrypt_block(aes, rec: bytes, path: str) -> bytes:
    try:
        magic, tag = _I32.unpack_from(rec, 0)[0], rec[4:20]
        iv_len = _I32.unpack_from(rec, 24)[0]
        iv = rec[28 : 28 + iv_len]
        n = _I32.unpack_from(rec, 28 + iv_len)[0]
        cipher = rec[32 + iv_len : 32 + iv_len + n]
        if magic & 0xFFFFFFFF != _MAGIC or iv_len != 16 or len(cipher) != n:
            raise ValueError
        return aes.decrypt(iv[:12], cipher + tag, None)
    except Exception:
        raise RuntimeError(
            f"Failed to decrypt data of {path}, please check if enc_key and enc_mode / dec_mode is valid."
        ) from None


def is_encrypted(path: str) -> bool:
    """Whether ``path`` ends with MindRecord's encryption marker."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() < len(END_FLAG):
                return False
            f.seek(-len(END_FLAG), os.SEEK_END)
            return f.read() == END_FLAG
    except OSError:
        return False


def encrypt_file(path: str) -> None:
    """Encrypt ``path`` in place (through a temporary file moved over it) with the key and mode set."""
    key, mode = _ENC_KEY, _ENC_MODE
    if key is None:
        return
    tmp = path + ".encrypt"
    try:
        with open(path, "rb") as src, open(tmp, "wb") as dst:
            size = os.fstat(src.fileno()).st_size
            if callable(mode):
                mode(src, size, dst, key)
            else:
                aes = _aesgcm(key)
                while True:
                    data = src.read(_BLOCK)
                    if not data:
                        break
                    rec = _encrypt_block(aes, data)
                    dst.write(_BE32.pack(len(rec)) + rec)
            dst.write(_BE32.pack(0) + _mode_tag(mode) + END_FLAG)
            dst.flush()
            os.fsync(dst.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def decrypted_bytes(path: str) -> bytes | None:
    """The plain bytes of ``path`` when a key is set (``None`` when no key is set and the file is plain).

    Raises:
        RuntimeError: the file is encrypted and no key is set, a key is set and the file is not encrypted, the
            file was encrypted with another mode, or the key does not decrypt it.
    """
    encrypted = is_encrypted(path)
    if _ENC_KEY is None:
        if encrypted:
            raise RuntimeError(
                "The mindrecord file is encrypted. You need to configure "
                "'mindspore.mindrecord.config.set_enc_key(...)' and "
                "'mindspore.mindrecord.config.set_enc_mode(...)' for decryption."
            )
        return None
    if not encrypted:
        raise RuntimeError(
            "The mindrecord file is not encrypted. You can set "
            "'mindspore.mindrecord.config.set_enc_key(None)' to disable the decryption."
        )
    mode = _dec_mode()
    with open(path, "rb") as f:
        raw = f.read()
    if raw[-len(END_FLAG) - 7 : -len(END_FLAG)] != _mode_tag(mode):
        raise RuntimeError("Failed to decrypt data, please check if enc_key and enc_mode / dec_mode is valid.")
    if callable(mode):
        out = io.BytesIO()
        mode(io.BytesIO(raw[: -len(END_FLAG)]), len(raw) - len(END_FLAG), out, _ENC_KEY)
        return out.getvalue()
    aes, pos, parts = _aesgcm(_ENC_KEY), 0, []
    while True:
        if pos + 4 > len(raw):
            raise RuntimeError(f"Failed to decrypt data of {path}: the file is truncated.")
        n = _BE32.unpack_from(raw, pos)[0]
        pos += 4
        if n == 0:
            break
        if n < 0 or pos + n > len(raw):
            raise RuntimeError(f"Failed to decrypt data of {path}: the file is truncated.")
        parts.append(_decrypt_block(aes, raw[pos : pos + n], path))
        pos += n
    return b"".join(parts)
