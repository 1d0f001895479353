"""The figures of .ci/fuzz-api, and its verdict.

    python3 .ci/fuzz_summary.py REPORT.json SERVER.log FIRST_LINE DOCUMENT_URL STATUS

Operations and failures come from Schemathesis's report; requests from the
server's own log, from line FIRST_LINE on (the seeding's requests before it
do not count), each matched to its operation in the served document. Prints
one line per operation (requests, 2xx answers, the most frequent other
status) and fails on any failure, any 5xx, or an operation that never got
a 2xx answer (unless listed below with the reason).
"""

import json
import re
import sys
import urllib.request
from collections import Counter, defaultdict

# Operations whose success path the fuzzer cannot reach, with the reason.
# (Empty: every operation has an aim that succeeds, .ci/fuzz_seed.py.)
NO_2XX_EXPECTED = {
    # "operationId": "why its success cannot be reached",
}

report_path, log_path, first_line, doc_url, status = sys.argv[1:6]
first_line, status = int(first_line), int(status)
try:
    report = json.load(open(report_path, encoding="utf-8"))
except (OSError, ValueError):
    report = {}
with urllib.request.urlopen(doc_url, timeout=10) as res:
    document = json.load(res)

# The operations, as (method, segments, operationId); a literal segment
# matches before a parameter (`/tournaments/import` is not `/tournaments/{id}`).
operations = []
for path, item in document.get("paths", {}).items():
    for method, op in item.items():
        if isinstance(op, dict) and "operationId" in op:
            operations.append((method.upper(), path.split("/"), op["operationId"]))


def operation_of(method, path):
    segments = path.split("?")[0].split("/")
    best, best_literals = None, -1
    for m, template, op_id in operations:
        if m != method or len(template) != len(segments):
            continue
        literals = 0
        for t, s in zip(template, segments):
            if t.startswith("{") and t.endswith("}"):
                if not s:
                    break
            elif t != s:
                break
            else:
                literals += 1
        else:
            if literals > best_literals:
                best, best_literals = op_id, literals
    return best


ansi = re.compile(r"\x1b\[[0-9;]*m")
line_re = re.compile(r"method=(\w+) path=(\S*?)\}.* done status=(\d{3})")
statuses = Counter()
per_op = defaultdict(Counter)
with open(log_path, encoding="utf-8", errors="replace") as log:
    for number, line in enumerate(log, start=1):
        if number <= first_line:
            continue
        m = line_re.search(ansi.sub("", line))
        if not m or m.group(2) == "/healthz":
            continue
        method, path, code = m.groups()
        statuses[code[0] + "xx"] += 1
        op_id = operation_of(method, path)
        if op_id is not None:
            per_op[op_id][code] += 1

print(f"{'operation':<24} {'requests':>8} {'2xx':>6}  most frequent other answer")
for _, _, op_id in sorted(operations, key=lambda o: o[2]):
    counts = per_op.get(op_id, Counter())
    ok = sum(v for k, v in counts.items() if k.startswith("2"))
    others = [(k, v) for k, v in counts.most_common() if not k.startswith("2")]
    other = f"{others[0][0]} x{others[0][1]}" if others else "-"
    print(f"{op_id:<24} {sum(counts.values()):>8} {ok:>6}  {other}")

ops = report.get("operations") or {}
cases = report.get("test_cases") or {}
failures = report.get("failures") or []
errors = report.get("errors") or []
no_auth = (report.get("warnings") or {}).get("missing_auth") or []
requests = sum(statuses.values())
by_class = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
without_2xx = [
    op_id
    for _, _, op_id in operations
    if not any(k.startswith("2") for k in per_op.get(op_id, {}))
]
print(
    f"fuzz-api: {ops.get('tested', 0)} operations tested of {ops.get('total', 0)}, "
    f"{requests} requests ({by_class or 'none'}), {cases.get('generated', 0)} test cases, "
    f"{len(failures)} failures, {len(errors)} errors, seed {report.get('seed')}; "
    f"{len(operations) - len(without_2xx)} of {len(operations)} operations answered 2xx"
)
problems = []
if status == 124:
    problems.append("stopped by the time limit")
elif status != 0:
    problems.append(f"schemathesis exited with {status}")
if not report:
    problems.append("no report was written")
if failures or errors:
    problems.append("failures or errors found (see above)")
if statuses.get("5xx"):
    problems.append(f"{statuses['5xx']} responses were 5xx")
if no_auth:
    problems.append(f"the token was refused on {len(no_auth)} operations (only 401/403)")
if not ops.get("tested") or not requests:
    problems.append("nothing was tested")
unexpected = sorted(op for op in without_2xx if op not in NO_2XX_EXPECTED)
if unexpected:
    problems.append(f"no 2xx answer for {len(unexpected)} operations: {', '.join(unexpected)}")
for p in problems:
    print(f"fuzz-api: FAILED: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
