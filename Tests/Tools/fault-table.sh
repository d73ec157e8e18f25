#!/usr/bin/env bash
# Prints the fault suite's one table from the report the scenarios wrote (one JSON line each,
# Tests/WundercastFaultTests/FaultLedger.swift): a row per fault class and the total. Exits 1 when
# any count other than scenarios and faults injected is non-zero, or when no scenario reported.
# Usage: fault-table.sh REPORT.jsonl
set -euo pipefail
report=${1:?usage: fault-table.sh REPORT.jsonl}
[ -f "$report" ] || { echo "fault suite: no report at $report (no scenario ran)"; exit 1; }
python3 - "$report" <<'PY'
import json, sys
columns = [("faults", "faults injected"), ("crashes", "crashes"), ("hangs", "hangs"),
           ("untruthful", "state lost or untruthful"), ("privilege", "privilege failures"),
           ("unsafe", "unsafe output")]
order = ["gpsd", "http", "socket", "process", "secrets", "clock", "resources"]
rows = {}
with open(sys.argv[1]) as f:
    for line in f:
        if not line.strip():
            continue
        record = json.loads(line)
        row = rows.setdefault(record["class"], {"scenarios": 0, **{k: 0 for k, _ in columns}})
        row["scenarios"] += 1
        for key, _ in columns:
            row[key] += int(record.get(key, 0))
total = {"scenarios": 0, **{k: 0 for k, _ in columns}}
for row in rows.values():
    for key in total:
        total[key] += row[key]
header = ["fault class", "scenarios"] + [title for _, title in columns]
print("| " + " | ".join(header) + " |")
print("|" + "|".join("---" if i == 0 else "--:" for i in range(len(header))) + "|")
names = sorted(rows, key=lambda name: (order.index(name) if name in order else len(order), name))
for name in names + ["total"]:
    row = total if name == "total" else rows[name]
    cells = [f"**{name}**" if name == "total" else name, str(row["scenarios"])] + [str(row[k]) for k, _ in columns]
    print("| " + " | ".join(cells) + " |")
bad = sum(total[k] for k, _ in columns if k != "faults")
if total["scenarios"] == 0 or bad:
    print(f"fault suite: {bad} problem(s) in {total['scenarios']} scenario(s)")
    sys.exit(1)
PY
