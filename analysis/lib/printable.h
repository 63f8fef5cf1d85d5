/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names from outside (a command line, a comm, a path, the CPU model string, any string of a
 * run file) made safe for the text: a terminal acts on an escape sequence or a newline in
 * them, so they are shown as `ls -b` shows a file name.  The run file keeps the raw bytes.
 */
#ifndef MIGTRACE_PRINTABLE_H
#define MIGTRACE_PRINTABLE_H

#include <stddef.h>
#include <stdint.h>

/* The length of the valid UTF-8 sequence at s (at most n bytes, n > 0), its code point in
 * *cp (may be NULL); 0 when the bytes there are not UTF-8. */
size_t utf8_len(const unsigned char *s, size_t n, uint32_t *cp);

/* Room for any string of n bytes made printable: each byte at most 4 ("\033"), and the NUL. */
#define PRINTABLE_SIZE(n) (4 * (n) + 1)

/*
 * s as `ls -b` shows a name: a backslash as \\, \a \b \t \n \v \f \r, and \ooo (octal) for
 * every other control byte (C0, DEL, the C1 controls U+0080-U+009F byte by byte), for a byte
 * that is not UTF-8, and for the bidirectional controls (U+061C, U+200E-U+200F, U+202A-U+202E,
 * U+2066-U+2069), which reorder what a terminal shows after them.  Printable UTF-8 is kept.
 * Written into buf (len > 0 bytes), cut before an escape or a character that does not fit
 * (PRINTABLE_SIZE(strlen(s)) always fits); returns buf.
 */
char *printable(char *buf, size_t len, const char *s);

#endif
