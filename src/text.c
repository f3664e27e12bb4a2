/* Escaping text from outside for messages (text.h). */
#include "text.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

int text_char_length(const unsigned char *c, int keep_space)
{
    if (c[0] < 0x80)
        return (c[0] < 0x20 && !(keep_space && (c[0] == '\t' || c[0] == '\n'))) ||
               c[0] == 0x7F || c[0] == '\\' ? 0 : 1;
    int n = c[0] >= 0xC2 && c[0] <= 0xDF ? 2
          : c[0] >= 0xE0 && c[0] <= 0xEF ? 3
          : c[0] >= 0xF0 && c[0] <= 0xF4 ? 4 : 0;
    uint32_t u = c[0] & (0x7F >> n);
    for (int k = 1; k < n; k++) {
        if ((c[k] & 0xC0) != 0x80) return 0;
        u = u << 6 | (c[k] & 0x3F);
    }
    if ((n == 2 && u <= 0x9F) ||   /* C1 controls U+0080..U+009F: some terminals obey them */
        (n == 3 && (u < 0x800 || (u >= 0xD800 && u <= 0xDFFF) || u >= 0xFFFE)) ||
        (n == 4 && (u < 0x10000 || u > 0x10FFFF)))
        return 0;
    return n;
}

char *text_escape(char *buf, size_t len, const char *s, size_t max)
{
    size_t n = 0, end = strlen(s) < max ? strlen(s) : max;
    const unsigned char *c = (const unsigned char *)s, *stop = c + end;
    while (c < stop) {
        int k = text_char_length(c, 0);
        if (k > stop - c) k = 0;   /* (a character cut by max: its bytes escaped) */
        size_t need = k ? (size_t)k : 4;
        if (n + need + 4 > len) {   /* room for "..." and the terminator */
            memcpy(buf + n, "...", 4);
            return buf;
        }
        if (k) memcpy(buf + n, c, need), c += k;
        else snprintf(buf + n, 5, "\\x%02X", *c++);
        n += need;
    }
    buf[n] = '\0';
    return buf;
}

const char *text_number(double v, char buf[32])
{
    for (int digits = 15; digits <= 17; digits++) {   /* (17 digits always read back as v) */
        snprintf(buf, 32, "%.*g", digits, v);
        if (strtod(buf, NULL) == v || v != v) break;
    }
    return buf;
}

const char *text_closest(const char *a, const char *const *names, size_t n)
{
    const char *best = NULL;
    int best_d = 3, la = (int)strlen(a);
    if (la > 40) return NULL;
    for (size_t k = 0; k < n; k++) {
        int lb = (int)strlen(names[k]), row[64];   /* Levenshtein distance, one row at a time */
        if (lb > 60) continue;
        for (int j = 0; j <= lb; j++) row[j] = j;
        for (int i = 1; i <= la; i++) {
            int diag = row[0];
            row[0] = i;
            for (int j = 1; j <= lb; j++) {
                int up = row[j], d = diag + (a[i - 1] != names[k][j - 1]);
                if (up + 1 < d) d = up + 1;
                if (row[j - 1] + 1 < d) d = row[j - 1] + 1;
                diag = up;
                row[j] = d;
            }
        }
        if (row[lb] < best_d && 2 * row[lb] < lb) best_d = row[lb], best = names[k];
    }
    return best;
}
