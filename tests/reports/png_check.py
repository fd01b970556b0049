#!/usr/bin/env python3
"""Checks what rsvg-convert rendered of a picture: FILE at full size is at most MAX_WIDTH pixels wide
(it fits a screen), and SMALL, the same rendered smaller (decoding every pixel of FILE takes Python
long), is not blank: enough pixels are not the white background. Prints "WIDTHxHEIGHT, N% drawn".
  png_check.py FILE MAX_WIDTH SMALL"""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def rows(data, width, height, bpp):
    """The unfiltered scanlines of an 8-bit, non-interlaced image (PNG specification, section 9)."""
    stride = width * bpp
    prev = bytearray(stride)
    pos = 0
    for _ in range(height):
        kind = data[pos]
        line = bytearray(data[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]) & 0xff
        yield line
        prev = line


def read(path):
    """The header fields and the decompressed image data of a PNG."""
    raw = open(path, "rb").read()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(raw):
        length, kind = struct.unpack(">I4s", raw[pos:pos + 8])
        body = raw[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    return header, zlib.decompress(idat)


def main():
    path, max_width, small = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    (full_width, full_height, *_), _ = read(path)
    header, data = read(small)
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and interlace == 0 and colour in (2, 6), f"unexpected PNG format {header}"
    bpp = 3 if colour == 2 else 4
    drawn = 0
    for line in rows(data, width, height, bpp):
        for x in range(0, width * bpp, bpp):
            if line[x] < 0xf0 or line[x + 1] < 0xf0 or line[x + 2] < 0xf0:
                drawn += 1
    share = 100.0 * drawn / (width * height)
    print(f"{full_width}x{full_height}, {share:.1f}% drawn")
    if full_width > max_width:
        sys.exit(f"{path}: {full_width} pixels wide, more than {max_width}")
    if share < 4:
        sys.exit(f"{path}: blank ({share:.1f}% of the pixels drawn)")


main()
