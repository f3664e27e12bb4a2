/* Text from outside (file names, option values, OFF content, a checkpoint's strings) in the
 * program's messages. Such text may hold any bytes; written raw to a terminal, a file name with
 * an escape character could recolour, retitle or rewrite the screen. Every message that echoes it
 * passes it through TEXT_ESC, which keeps printable UTF-8 and writes every other byte as \xHH. */
#ifndef PH_TEXT_H
#define PH_TEXT_H
#include <stddef.h>
#include <stdint.h>

/* The length (1 to 4) of the well-formed UTF-8 character at c that may be shown as it is, or 0:
 * a byte that does not start one (overlong forms, surrogates and values above U+10FFFF do not),
 * a C0 or C1 control character (tab and newline only with keep_space), DEL, U+FFFE, U+FFFF, or
 * a backslash (which introduces the escapes, so that "\x1B" in a message is never a name's own). */
int text_char_length(const unsigned char *c, int keep_space);

/* Writes at most `max` bytes of s into buf (len bytes, len >= 8), each as itself when
 * text_char_length allows it and as "\xHH" otherwise; a text that does not fit ends in "...".
 * Returns buf. */
char *text_escape(char *buf, size_t len, const char *s, size_t max);

/* The escaped form of s (at most TEXT_ESC_SIZE bytes; a longer text ends in "...", so a message
 * shows the start of a long token), in a buffer that lives until the end of the enclosing block:
 *     fprintf(stderr, "cannot open %s\n", TEXT_ESC(path)); */
enum { TEXT_ESC_SIZE = 2048 };
#define TEXT_ESC(s) text_escape((char[TEXT_ESC_SIZE]){ 0 }, TEXT_ESC_SIZE, (s), SIZE_MAX)
#define TEXT_ESC_N(s, max) text_escape((char[TEXT_ESC_SIZE]){ 0 }, TEXT_ESC_SIZE, (s), (max))

/* The shortest of %.15g, %.16g and %.17g that reads back as v (0.2, not 0.20000000000000001), in
 * buf; returns buf. For numbers a person reads that must also read back exactly (the banner, the
 * frames' parameters). */
const char *text_number(double v, char buf[32]);

/* The name of names[0 .. n-1] nearest to a (at most 2 edits away, and fewer than half its
 * letters), or NULL: for "did you mean". An exact match is returned as itself. */
const char *text_closest(const char *a, const char *const *names, size_t n);

#endif
