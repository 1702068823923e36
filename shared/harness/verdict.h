/* verdict.h: the verdict record (harness-internal; not part of wb.h, which exercises include).
 *
 * A program started by shared/cmake/run-lesson.sh gets two inherited descriptors, named by
 * WB_TOKEN_FD (a pipe holding a per-run random token) and WB_RECORD_FD (a file). Before any
 * constructor of the learner's code runs, the harness reads the token, closes that pipe and
 * removes both variables from the environment. wb_finish, called by the driver after its checks,
 * then writes the record:
 *     wb-verdict TOKEN
 *     task N fail          (one line per task the failure names; none when it passes)
 *     end PASS|FAIL
 * run-lesson.sh accepts a pass only with this record and the token it gave that run, so a
 * program that prints PASS and exits before the checks end, or changes its exit status after
 * them, fails. */
#ifndef WB_VERDICT_H
#define WB_VERDICT_H

void wb_verdict_write(int passed, const char *reason);

#endif
