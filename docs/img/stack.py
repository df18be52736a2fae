#!/usr/bin/env python3
"""Stacks horizontal bands of a screenshot into one PNG (docs/img/report.sh).

    stack.py IN.png OUT.png Y0:Y1 [Y0:Y1 ...]

Reads IN through ImageMagick (`convert IN ppm:-`), keeps the rows of each band at full width, puts
a thin grey rule between bands, rounds each channel to 5 bits (invisible on a page of flat colours,
and the file a quarter smaller), and writes an RGB PNG (each row's filter the smallest of None, Sub
and Up; zlib level 9)."""
import struct
import subprocess
import sys
import zlib


def read_ppm(path):
    data = subprocess.run(["convert", path, "ppm:-"], capture_output=True, check=True).stdout
    fields, i = [], 0
    while len(fields) < 4:  # P6, width, height, maxval, with comments allowed between
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while data[i:i + 1] != b"\n":
                i += 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[i + 1:i + 1 + width * height * 3]


def write_png(path, width, rows):
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    def cost(data):
        return sum(v if v < 128 else 256 - v for v in data)

    raw, prev = bytearray(), bytes(width * 3)
    for row in rows:
        up = bytes((a - b) & 0xFF for a, b in zip(row, prev))
        sub = bytes((row[i] - (row[i - 3] if i >= 3 else 0)) & 0xFF for i in range(len(row)))
        kind, data = min(((0, row), (1, sub), (2, up)), key=lambda c: cost(c[1]))
        raw.append(kind)
        raw.extend(data)
        prev = row
    header = struct.pack(">IIBBBBB", width, len(rows), 8, 2, 0, 0, 0)
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
                  chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def main():
    width, height, pixels = read_ppm(sys.argv[1])
    pixels = pixels.translate(bytes((v & 0xF8) | (v >> 5) for v in range(256)))
    rows = []
    for n, band in enumerate(sys.argv[3:]):
        top, bottom = (int(v) for v in band.split(":"))
        if n:
            rows += [bytes([175] * width * 3)] * 2 + [bytes([255] * width * 3)] * 8
        rows += [pixels[y * width * 3:(y + 1) * width * 3] for y in range(top, min(bottom, height))]
    write_png(sys.argv[2], width, rows)


if __name__ == "__main__":
    main()
