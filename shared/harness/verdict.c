/* verdict.c: the verdict record (see verdict.h). */
#define _POSIX_C_SOURCE 200809L
#include "verdict.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char verdict_token[80];
static int verdict_fd = -1;

static int fd_from_env(const char *name) {
  const char *text = getenv(name);
  if (!text || !*text) return -1;
  char *end;
  long fd = strtol(text, &end, 10);
  return *end == '\0' && fd >= 0 && fd < 65536 ? (int)fd : -1;
}

/* Priority 101 runs before every constructor without a priority (the learner's globals, the
 * toolkit's registration), so no code of the exercise sees the token's pipe still open. */
__attribute__((constructor(101))) static void wb_verdict_setup(void) {
  int token_fd = fd_from_env("WB_TOKEN_FD");
  int record_fd = fd_from_env("WB_RECORD_FD");
  unsetenv("WB_TOKEN_FD");
  unsetenv("WB_RECORD_FD");
  if (token_fd < 0 || record_fd < 0) return;
  size_t length = 0;
  while (length < sizeof verdict_token - 1) {
    ssize_t got = read(token_fd, verdict_token + length, sizeof verdict_token - 1 - length);
    if (got <= 0) break;
    length += (size_t)got;
  }
  close(token_fd);
  while (length > 0 && isspace((unsigned char)verdict_token[length - 1])) length--;
  verdict_token[length] = '\0';
  if (length == 0) return;
  fcntl(record_fd, F_SETFD, FD_CLOEXEC); /* a child the program starts does not inherit it */
  verdict_fd = record_fd;
}

/* The tasks a failure names: "task 3", "tasks 1 and 2", "tasks 1, 2" (each number once). */
static size_t named_tasks(const char *reason, int *tasks, size_t capacity) {
  size_t count = 0;
  for (const char *p = reason; p && (p = strstr(p, "task")) != NULL;) {
    p += 4;
    if (*p == 's') p++;
    for (;;) {
      while (*p == ' ' || *p == ',') p++;
      if (strncmp(p, "and ", 4) == 0) p += 4;
      if (!isdigit((unsigned char)*p)) break;
      char *end;
      int task = (int)strtol(p, &end, 10);
      p = end;
      size_t i = 0;
      while (i < count && tasks[i] != task) i++;
      if (i == count && count < capacity) tasks[count++] = task;
    }
  }
  return count;
}

void wb_verdict_write(int passed, const char *reason) {
  if (verdict_fd < 0) return;
  char record[1024];
  int length = snprintf(record, sizeof record, "wb-verdict %s\n", verdict_token);
  if (!passed) {
    int tasks[16];
    size_t count = named_tasks(reason, tasks, sizeof tasks / sizeof tasks[0]);
    for (size_t i = 0; i < count; i++)
      length +=
          snprintf(record + length, sizeof record - (size_t)length, "task %d fail\n", tasks[i]);
  }
  length += snprintf(record + length, sizeof record - (size_t)length, "end %s\n",
                     passed ? "PASS" : "FAIL");
  /* One record per run: a second wb_finish (or a forged call) cannot add another. */
  if (write(verdict_fd, record, (size_t)length) != length) {
    /* Nothing to do: an incomplete record is rejected by run-lesson.sh. */
  }
  close(verdict_fd);
  verdict_fd = -1;
  memset(verdict_token, 0, sizeof verdict_token);
}
