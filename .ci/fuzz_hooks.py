"""Schemathesis hooks for .ci/fuzz-api: aim most generated cases at the data
.ci/fuzz_seed.py built (FUZZ_SEED_FILE), so that every operation reaches
its success path, and keep the rest away from that data.

- `flatmap_case`: three cases in four of an operation with aims get one of
  them: its real path parameters (tournament, pair, penalty, team, circuit,
  person ids, round and table numbers, table codes) and, where it has one,
  its valid body (or a fresh one, for what registers names: pairs, a CSV,
  teams). The fourth stays as generated.
- `before_call`, just before a request is sent: a write not aimed whose
  tournament or circuit id happens to be one of the seeded ones is sent to
  an id that does not exist, so that chance does not close, delete or
  rewrite the seed; an aimed case gets what it needs from the server's
  current state: a sheet's current `version` (saveSheet,
  setAdjustedScore), or a table-side entry to confirm and its
  `entry_version` (confirmTableSheet).
"""

import copy
import json
import os
import urllib.error
import urllib.request

import schemathesis
from hypothesis import strategies as st

with open(os.environ["FUZZ_SEED_FILE"], encoding="utf-8") as _f:
    _SEED = json.load(_f)
AIMS = _SEED["aims"]
PROTECTED = {kind: set(ids) for kind, ids in _SEED["protected"].items()}
BASE = os.environ["FUZZ_BASE"]
TOKEN = os.environ["FUZZ_TOKEN"]
# An id no seeded object has.
ELSEWHERE = 1_000_000
# Set on an aimed case (with what `before_call` prepares); taken off before
# sending.
AIMED = "X-Fuzz-Aimed"


def _key(operation):
    return f"{operation.method.upper()} {operation.path}"


# Letters only: plausible names for players and teams.
_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=10).map(str.title)


def _made(kind):
    """A fresh body for what registers names (the seeded ones would clash)."""
    if kind == "pair":
        return st.fixed_dictionaries(
            {"p1_surname": _word, "p1_name": _word, "p2_surname": _word, "p2_name": _word}
        )
    if kind == "csv":
        line = st.tuples(_word, _word, _word, _word).map(";".join)
        return st.lists(line, min_size=1, max_size=4, unique=True).map(
            lambda lines: {"csv": "cognome1;nome1;cognome2;nome2\n" + "\n".join(lines) + "\n"}
        )
    if kind == "entry":
        player = st.fixed_dictionaries({"surname": _word, "name": _word})
        return st.fixed_dictionaries(
            {"players": st.lists(player, min_size=2, max_size=2), "email": st.just("a@example.org"),
             "consent": st.just(True)}
        )
    if kind == "player":
        return st.fixed_dictionaries({"surname": _word, "name": _word})
    if kind == "team":
        player = st.fixed_dictionaries({"surname": _word, "name": _word})
        return st.fixed_dictionaries(
            {"name": _word, "players": st.lists(player, min_size=4, max_size=6)}
        )
    raise ValueError(kind)


def _aimed(case, aim, body):
    case.path_parameters = {**case.path_parameters, **aim["path"]}
    if body is not None:
        case.body = body
        case.media_type = aim.get("media", "application/json")
    if case.headers is None:
        case.headers = {}
    case.headers[AIMED] = json.dumps(aim.get("prepare"))
    return case


def _aim_strategy(case, aim):
    if "make" in aim:
        body = _made(aim["make"])
    else:
        body = st.just(aim.get("body"))
    return body.map(lambda b: _aimed(case, aim, copy.deepcopy(b)))


@schemathesis.hook
def flatmap_case(ctx, case):
    aims = AIMS.get(_key(ctx.operation))
    if not aims:
        return st.just(case)
    aimed = st.sampled_from(aims).flatmap(lambda aim: _aim_strategy(case, aim))
    return st.integers(min_value=0, max_value=3).flatmap(
        lambda k: st.just(case) if k == 0 else aimed
    )


def _request(method, path, body=None, token=True):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method)
    if token:
        req.add_header("Authorization", f"Bearer {TOKEN}")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return res.status, json.loads(res.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, None


def _protect(ctx, case):
    """A write not aimed here whose tournament or circuit id is a seeded
    one goes to an id that does not exist instead."""
    if ctx.operation.method.upper() == "GET" or not case.path_parameters:
        return
    params = dict(case.path_parameters)
    for name, value in params.items():
        if name == "id":
            kind = "circuit" if ctx.operation.path.startswith("/api/v1/circuits/") else "tournament"
        elif name == "tournament_id":
            kind = "tournament"
        else:
            continue
        if isinstance(value, bool):
            continue
        if isinstance(value, str) and value.isdigit():
            value = int(value)
        if isinstance(value, int) and value in PROTECTED[kind]:
            params[name] = value + ELSEWHERE
    case.path_parameters = params


@schemathesis.hook
def before_call(ctx, case, kwargs):
    # (Here rather than when cases are generated: every phase's requests
    # pass here, the coverage phase's too.)
    if not case.headers or AIMED not in case.headers:
        _protect(ctx, case)
        return
    prepare = json.loads(case.headers.pop(AIMED))
    p = case.path_parameters
    if prepare == "version":
        # The sheet's current version: saving over it is not a conflict.
        status, sheet = _request(
            "GET", f"/api/v1/tournaments/{p['id']}/rounds/{p['n']}/tables/{p['table']}/sheet"
        )
        if status == 200 and sheet.get("version") is not None and isinstance(case.body, dict):
            case.body = {**case.body, "version": sheet["version"]}
    elif isinstance(prepare, dict) and "enter" in prepare:
        # One pair enters the sheet, the other confirms the version it reads.
        code = p["code"]
        _request("POST", f"/api/v1/score/{code}/sheet", prepare["enter"], token=False)
        status, view = _request("GET", f"/api/v1/score/{code}", token=False)
        if status == 200 and view.get("entry_version") is not None and isinstance(case.body, dict):
            case.body = {**case.body, "entry_version": view["entry_version"]}
