#!/usr/bin/env python3
"""Regenerates a `patience` seeded deal without the program: the README's specification, in
plain Python (ChaCha8 written out from its definition). Usage: shuffle.py SEED [PACKS]"""
import struct
import sys

MASK = 0xFFFFFFFF


def rotl(x, n):
    return ((x << n) & MASK) | (x >> (32 - n))


def chacha8_words(key):
    """The ChaCha keystream with 8 rounds, 64-bit block counter from 0, nonce 0, as 32-bit words."""
    constants = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    key_words = list(struct.unpack("<8I", key))
    counter = 0
    while True:
        state = constants + key_words + [counter & MASK, counter >> 32, 0, 0]
        x = state[:]
        for _ in range(4):  # 4 double rounds = 8 rounds
            for a, b, c, d in ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                               (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)):
                x[a] = (x[a] + x[b]) & MASK; x[d] = rotl(x[d] ^ x[a], 16)
                x[c] = (x[c] + x[d]) & MASK; x[b] = rotl(x[b] ^ x[c], 12)
                x[a] = (x[a] + x[b]) & MASK; x[d] = rotl(x[d] ^ x[a], 8)
                x[c] = (x[c] + x[d]) & MASK; x[b] = rotl(x[b] ^ x[c], 7)
        for i in range(16):
            yield (x[i] + state[i]) & MASK
        counter += 1


def deal(seed, packs=1):
    words = chacha8_words(struct.pack("<Q", seed) + bytes(24))
    cards = [r + s for _ in range(packs) for s in "CDHS" for r in "A23456789TJQK"]
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        zone = (1 << 32) - (1 << 32) % bound
        x = next(words)
        while x >= zone:
            x = next(words)
        j = x % bound
        cards[i], cards[j] = cards[j], cards[i]
    return cards


if __name__ == "__main__":
    seed = int(sys.argv[1])
    packs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    print(" ".join(deal(seed, packs)))
