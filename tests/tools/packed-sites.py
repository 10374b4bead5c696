#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Copy textual IR from stdin to stdout and, after each block of site
descriptors the pass emitted (one descriptor, or a table of 2 to 4:
alignguard_site, runtime/include/alignguard/alignguard.h), add one comment
line that decodes it, for FileCheck:

  ; packed @__alignguard_site.N = [{ i32 3, i32 KIND, c"FUNCTION",
  ;   c"SUBJECT", FILE, i32 LINE, i32 COLUMN, i64 ALIGNMENT, i64 OFFSET,
  ;   PROMISE_FILE, i32 PROMISE_LINE, i32 PROMISE_COLUMN }, ...]

(one line; a file is c"..." or null). Decodes the layout the header
documents, independently of the pass: 56-byte descriptors, then
NUL-terminated strings named by their offset from the descriptor, in the
byte order of the module's datalayout. Exits 1 when a block does not decode
(not 1 to 4 descriptors, a string offset outside the block, an unterminated
string, a descriptor of another version, a descriptor line it cannot
parse). Strings print as IR prints them (\XX escapes).
"""
import re
import struct
import sys

SIZE = 56
TABLE = re.compile(
    r'^@(__alignguard_site[.0-9]*) = private constant '
    r'\{ \[(\d+) x i8\], \[(\d+) x i8\] \} '
    r'\{ \[\d+ x i8\] c"((?:[^"\\]|\\[0-9A-Fa-f]{2}|\\\\)*)", '
    r'\[\d+ x i8\] (?:c"((?:[^"\\]|\\[0-9A-Fa-f]{2}|\\\\)*)"|zeroinitializer) \}'
    r'(?:, align (\d+))?')


def unescape(text):
    """The bytes of an IR c"..." string."""
    out = bytearray()
    i = 0
    while i < len(text):
        if text[i] == '\\':
            if text[i + 1] == '\\':
                out.append(0x5c)
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out.extend(text[i].encode('latin-1'))
            i += 1
    return bytes(out)


def escape(data):
    """data as IR prints a c"..." string: printable ASCII but `"` and `\`
    as itself, every other byte as \XX."""
    return ''.join(chr(b) if 0x20 <= b < 0x7f and b not in (0x22, 0x5c)
                   else '\\%02X' % b for b in data)


def fail(message):
    sys.stderr.write('packed-sites.py: ' + message + '\n')
    sys.exit(1)


def decode(name, descriptors, strings, big_endian):
    if len(descriptors) % SIZE or not 1 <= len(descriptors) // SIZE <= 4:
        fail('%s: %d descriptor bytes, not 1 to 4 of %d' %
             (name, len(descriptors), SIZE))
    blob = descriptors + strings
    order = '>' if big_endian else '<'
    entries = []
    for k in range(len(descriptors) // SIZE):
        at = k * SIZE
        (version, kind, function, subject, file_, line, column, promise_file,
         alignment, offset, promise_line, promise_column) = struct.unpack(
             order + '8I2Q2I', blob[at:at + SIZE])
        if version != 3:
            fail('%s[%d]: version %d, not 3' % (name, k, version))

        def string(offset_, none_ok):
            if offset_ == 0:
                if not none_ok:
                    fail('%s[%d]: a required string is missing' % (name, k))
                return 'null'
            start = at + offset_
            if start < len(descriptors) or start >= len(blob):
                fail('%s[%d]: string offset %d outside the strings' %
                     (name, k, offset_))
            end = blob.find(b'\0', start)
            if end < 0:
                fail('%s[%d]: unterminated string at %d' % (name, k, offset_))
            return 'c"%s"' % escape(blob[start:end])

        signed = offset - (1 << 64) if offset >= 1 << 63 else offset
        entries.append(
            '{ i32 %d, i32 %d, %s, %s, %s, i32 %d, i32 %d, i64 %d, i64 %d, '
            '%s, i32 %d, i32 %d }' %
            (version, kind, string(function, False), string(subject, False),
             string(file_, True), line, column, alignment, signed,
             string(promise_file, True), promise_line, promise_column))
    return '; packed @%s = [%s]' % (name, ', '.join(entries))


def main():
    big_endian = False
    for line in sys.stdin:
        sys.stdout.write(line)
        if line.startswith('target datalayout = "'):
            layout = line[len('target datalayout = "'):].split('"')[0]
            big_endian = 'E' in layout.split('-')
        if not line.startswith('@__alignguard_site'):
            continue
        m = TABLE.match(line)
        if not m:
            if ' = private constant ' in line:
                fail('a descriptor this script cannot read: ' + line.strip())
            continue  # another global of that name (descriptor-names.ll)
        name, size0, size1, text0, text1, align = m.groups()
        descriptors = unescape(text0)
        strings = unescape(text1) if text1 is not None else bytes(int(size1))
        if len(descriptors) != int(size0) or len(strings) != int(size1):
            fail('%s: array sizes do not match their bytes' % name)
        if align is None or int(align) < 8:
            fail('%s: not 8-byte aligned' % name)
        sys.stdout.write(decode(name, descriptors, strings, big_endian) + '\n')


if __name__ == '__main__':
    main()
