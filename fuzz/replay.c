/* replay.c: a main() for a harness of fuzz/ without libFuzzer, so that
 * `make test` (any compiler) runs each harness over its seed corpus and its
 * regression inputs (fuzz/regress/NAME/, the inputs that fuzzing once
 * crashed): tests/fuzz_replay.sh. Usage: replay_fuzz_NAME FILE... (absolute
 * paths: the harness moves to a temporary directory first). */
#include "fuzz_common.h"

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    int n = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        size_t cap = 1 << 16, len = 0, k;
        uint8_t *buf = malloc(cap);
        while (buf && (k = fread(buf + len, 1, cap - len, f)) > 0) {
            len += k;
            if (len == cap)
                buf = realloc(buf, cap *= 2);
        }
        fclose(f);
        if (!buf)
            abort();
        /* an exact-size copy, so that ASan sees a read past the input */
        uint8_t *exact = malloc(len ? len : 1);
        if (!exact)
            abort();
        memcpy(exact, buf, len);
        free(buf);
        LLVMFuzzerTestOneInput(exact, len);
        free(exact);
        n++;
    }
    printf("replayed %d inputs\n", n);
    return 0;
}
