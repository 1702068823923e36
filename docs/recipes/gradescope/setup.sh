#!/usr/bin/env bash
# Gradescope: runs once when the autograder image is built. The autograder zip holds this file,
# run_autograder, lessons.txt (the lessons of this assignment, e.g. 03-05) and workbook/ (the
# instructor's tree, with solutions/ for per-task credit; Gradescope unpacks it in
# /autograder/source). See docs/instructor-guide.md.
set -eu
apt-get update
apt-get install -y --no-install-recommends cmake ninja-build g++ make bubblewrap
chmod +x /autograder/source/workbook/workbook
