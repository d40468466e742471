#include <stdio.h> /* PLAIN-COMMENT trailing */
#include <string.h>

/** Count DOC-COMMENT. */
int count_pairs(const char **lines, int n, int strict) {
    int result = 0;
    const char *url = "http://x//not-a-comment";
    // PLAIN-COMMENT own line
    for (int i = 0; i < n; i++) {
        const char *line = lines[i];
        if (line[0] == '\0') {
            continue;
        }
        const char *eq = strchr(line, '=');
        int has_value = eq != NULL && eq[1] != '\0';
        if (strict && !has_value) {
            return -1; // PLAIN-COMMENT
        }
        result++;
    }
    int total = result;
    int extra = total * 2;
    extra += 1;
    printf("%d %d %s\n", total, extra, url);
    return result;
}
