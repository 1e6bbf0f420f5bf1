#!/usr/bin/env python3
"""Compares two 8-bit PNG screenshots byte by byte: prints the largest difference and how many bytes differ.
Exit 0 when every byte is within TOL (default 2) of the other image's, 1 otherwise, 2 on unreadable input."""
import struct, sys, zlib

def read_png(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError(f"{path}: not a PNG")
    pos, idat, width = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            width, height, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or interlace != 0 or ctype not in (2, 6):
                raise ValueError(f"{path}: only 8-bit non-interlaced RGB/RGBA is read (depth {depth}, type {ctype})")
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), width * bpp
    out, prev = bytearray(), bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line; prev = line
    return width, height, bytes(out)

if __name__ == '__main__':
    tol = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    try:
        a, b = read_png(sys.argv[1]), read_png(sys.argv[2])
    except (OSError, ValueError, zlib.error) as e:
        print(e); sys.exit(2)
    if a[:2] != b[:2]:
        print(f"sizes differ: {a[:2]} vs {b[:2]}"); sys.exit(1)
    diffs = [abs(x - y) for x, y in zip(a[2], b[2])]
    worst, over = max(diffs), sum(1 for d in diffs if d > tol)
    print(f"max diff {worst}, bytes differing {sum(1 for d in diffs if d)}, over {tol}: {over} of {len(diffs)}")
    sys.exit(0 if over == 0 else 1)
