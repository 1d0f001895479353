"""Seeds the fuzzer's server with real data and writes what the hooks aim at.

Run by .ci/fuzz-api once the server answers:

    python3 .ci/fuzz_seed.py BIN BASE_URL TOKEN DATABASE OUT.json

Tournament files (the CLI's `sample-tournament` and `sample-circuit`) are
imported with the CLI; everything else goes through the API with the token,
as a client would (the database is only read, for the table and pair codes
printed on the cards, which the API never shows). Several objects are made
for the operations that use them up (closing, starting, deleting,
withdrawing), so that they do not take the seed away from the others.

OUT.json holds, for each operation (`METHOD /path/template`), a list of
aims: `{"path": {...}, "body": ...}` with real ids, codes and valid bodies
(.ci/fuzz_hooks.py sends most generated cases to one of them), and the
ids that must not be hit by chance (`protected`).
"""

import json
import os
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request

BIN, BASE, TOKEN, DATABASE, OUT = sys.argv[1:6]
PAIRS = int(os.environ.get("FUZZ_PAIRS", "16"))
ROUNDS = int(os.environ.get("FUZZ_ROUNDS", "3"))
API = BASE + "/api/v1"

aims = {}
protected_tournaments = set()
protected_circuits = set()


def aim(op, path=None, body=None, **extra):
    entry = {"path": path or {}}
    if body is not None:
        entry["body"] = body
    entry.update(extra)
    aims.setdefault(op, []).append(entry)


def call(method, path, body=None, expect=(200, 201)):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(API + path, data=data, method=method)
    req.add_header("Authorization", f"Bearer {TOKEN}")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            status, text = res.status, res.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    if status not in expect:
        raise SystemExit(f"fuzz_seed: {method} {path}: {status} {text[:400]}")
    return json.loads(text) if text else None


def cli(*args, stdin=None):
    out = subprocess.run(
        [BIN, *args], input=stdin, capture_output=True, text=True, check=True
    )
    return out.stdout


def imported(text):
    """Imports a file (tournament or circuit bundle) with the CLI; its id."""
    folder = os.path.dirname(os.path.abspath(OUT))
    path = os.path.join(folder, f"import-{len(os.listdir(folder))}.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    out = cli("import", path)
    # "imported as tournament 7" / "imported as circuit 2"
    return int(out.strip().split()[-1])


def sample(*args):
    return cli("sample-tournament", *args)


def sample_import(*args, more_rounds=0, open_last=False):
    """Imports a sample tournament: `more_rounds` planned rounds still to
    draw; `open_last`: the last round's sheets taken out (nothing entered)."""
    file = json.loads(sample(*args))
    if more_rounds:
        file["planned_rounds"] = file["planned_rounds"] + more_rounds
    if open_last:
        for key in ("tables", "matches"):
            for item in file["rounds"][-1].get(key, []):
                for table in item.get("tables", [item]):
                    table.pop("sheet", None)
    return imported(json.dumps(file)), file


def codes(tid):
    """Table codes by table number, pair codes by pair number (read-only)."""
    db = sqlite3.connect(f"file:{DATABASE}?mode=ro", uri=True)
    try:
        tables = dict(db.execute(
            "SELECT table_no, code FROM table_codes WHERE tournament_id = ?", (tid,)))
        pairs = dict(db.execute(
            "SELECT number, code FROM pairs WHERE tournament_id = ? AND code IS NOT NULL", (tid,)))
    finally:
        db.close()
    return tables, pairs


def sheets_of(file):
    """Every sheet of a sample file (valid for its profile and hands)."""
    out = []
    for r in file.get("rounds", []):
        for t in r.get("tables", []):
            if t.get("sheet"):
                out.append(t["sheet"])
    return out


def new_tournament(name, kind="pairs", **settings):
    body = {
        "name": name, "date": "2026-12-01", "start_time": "20:30", "venue": "Circolo",
        "profile": "codice", "planned_rounds": 4, "hands_per_round": 3,
        "mitchell_rounds": 2, "mitchell_advance": 1, "entry_fee": "10.00",
        "prize_share_percent": "70", "payout": [{"min_entries": 1, "percents": ["60", "40"]}],
        "kind": kind, **settings,
    }
    return call("POST", "/tournaments", body)["id"], body


CSV_HEAD = "cognome1;nome1;cognome2;nome2\n"
SURNAMES = ["Rossi", "Bianchi", "Verdi", "Neri", "Gallo", "Costa", "Greco", "Conti",
            "Bruno", "Marino", "Ricci", "Lombardi", "Moretti", "Barbieri", "Fontana", "Rinaldi"]
NAMES = ["Anna", "Luca", "Maria", "Paolo", "Chiara", "Marco", "Giulia", "Andrea"]


def csv_pairs(n, tag):
    lines = [f"{SURNAMES[i % 16]}{tag};{NAMES[i % 8]};{SURNAMES[(i + 5) % 16]}{tag};{NAMES[(i + 3) % 8]}"
             for i in range(n)]
    return CSV_HEAD + "\n".join(lines) + "\n"


def draft_with_pairs(name, n, check_in):
    tid, body = new_tournament(name)
    call("POST", f"/tournaments/{tid}/pairs/import", {"csv": csv_pairs(n, name.split()[-1])})
    pairs = call("GET", f"/tournaments/{tid}/pairs")
    if check_in:
        for p in pairs:
            call("POST", f"/tournaments/{tid}/pairs/{p['id']}/checkin", {"action": "check_in"})
    return tid, body, pairs


def team_body(name, n=4):
    """A team of `n` players whose names are the team's own."""
    return {"name": name, "players": [
        {"surname": f"{SURNAMES[i % 16]} {name}", "name": NAMES[i % 8]} for i in range(n)]}


def main():
    T = "/api/v1/tournaments"
    C = "/api/v1/circuits"
    S = "/api/v1/score"

    # ---- the main pairs tournament: running, complete rounds, penalties
    t1, f1 = sample_import("--pairs", str(PAIRS), "--rounds", str(ROUNDS), "--running")
    pairs1 = call("GET", f"/tournaments/{t1}/pairs")
    # (the first four to withdraw, the last four withdrawn, to reinstate)
    penalties = [call("POST", f"/tournaments/{t1}/penalties",
                      {"pair": p["id"], "round": 1, "kind": "warning", "reason": "slow play"})["id"]
                 for p in pairs1[:8]]
    for pid in penalties[4:]:
        call("POST", f"/tournaments/{t1}/penalties/{pid}/withdraw", {"reason": "seeded"})
    sheets = sheets_of(f1)

    # ---- more pairs tournaments, each for what uses it up
    nexts = [sample_import("--pairs", "8", "--rounds", "2", "--running", "--seed", str(s),
                           more_rounds=1)[0]
             for s in (11, 12, 13)]
    closing = [sample_import("--pairs", "8", "--rounds", "2", "--running", "--seed", str(s))[0]
               for s in (21, 22, 23)]
    finished = [sample_import("--pairs", "8", "--rounds", "2", "--seed", str(s))[0]
                for s in (31, 32, 33)]
    t_wd, _ = sample_import("--pairs", "8", "--rounds", "1", "--running", "--seed", "41")
    # (the last round drawn, nothing entered)
    t_sheet, _ = sample_import("--pairs", "8", "--rounds", "3", "--running", "--seed", "51",
                               open_last=True)
    sheet_round = 3
    t_ts, _ = sample_import("--pairs", "16", "--rounds", "2", "--running", "--seed", "61",
                            open_last=True)

    t_draft, draft_body, draft_pairs = draft_with_pairs("Bozza A", 8, check_in=False)
    starts = [draft_with_pairs(f"Partenza {c}", 8, check_in=True)[0] for c in "BCD"]
    t_redraw = draft_with_pairs("Risorteggio E", 8, check_in=True)[0]
    call("POST", f"/tournaments/{t_redraw}/start")

    # ---- team tournaments
    tm_run, _ = sample_import("--teams", "8", "--rounds", "3", "--running", "--seed", "71",
                              open_last=True)  # round 3: line-ups still open
    teams_run = call("GET", f"/tournaments/{tm_run}/teams")
    tm_wd, _ = sample_import("--teams", "8", "--rounds", "1", "--running", "--seed", "72")
    teams_wd = call("GET", f"/tournaments/{tm_wd}/teams")
    tm_fin, _ = sample_import("--teams", "4", "--rounds", "1", "--seed", "73")
    tm_draft, _ = new_tournament("Squadre bozza", kind="teams")
    for i in range(4):
        call("POST", f"/tournaments/{tm_draft}/teams", team_body(f"Squadra {i + 1}"))
    teams_draft = call("GET", f"/tournaments/{tm_draft}/teams")

    # ---- individual tournaments: a draft of 8 players, and 8 started
    def individual(name, start):
        tid, _ = new_tournament(name, kind="individual")
        for i in range(8):
            call("POST", f"/tournaments/{tid}/players",
                 {"surname": f"{SURNAMES[i]} {name}", "name": NAMES[i % 8]})
        players = call("GET", f"/tournaments/{tid}/players")
        if start:
            for pl in players:
                call("POST", f"/tournaments/{tid}/players/{pl['id']}/checkin", {"checked_in": True})
            call("POST", f"/tournaments/{tid}/start")
        return tid, players
    ind_draft, ind_draft_players = individual("Individuale bozza", False)
    ind_run, ind_run_players = individual("Individuale via", True)

    # ---- circuits: one imported with its stages, one to add and remove
    # stages on, and some to delete
    bundle = cli("sample-circuit", "--stages", "3", "--players", "20")
    c1 = imported(bundle)
    c1_standings = call("GET", f"/circuits/{c1}/standings")
    people = sorted({p for row in c1_standings["people"] for p in row})
    c1_stages = [s["tournament_id"] for s in c1_standings["stages"]]
    spec = {"name": "Circuito fuzz", "season": "2026/27", "points": {"method": "placing"},
            "best_of": 10, "min_attendances": 1}
    c_stages = call("POST", "/circuits", spec)["id"]
    for tid in finished[:2]:
        call("POST", f"/circuits/{c_stages}/stages", {"tournament_id": tid})
    c_deletes = [call("POST", "/circuits", {**spec, "name": f"Da cancellare {i}"})["id"]
                 for i in range(3)]

    # ---- what the hooks aim at, per operation
    all_pairs_tournaments = [t1, *nexts, *closing, *finished, t_wd, t_sheet, t_ts, t_draft,
                             *starts, t_redraw]
    all_team_tournaments = [tm_run, tm_wd, tm_fin, tm_draft]
    all_individual_tournaments = [ind_draft, ind_run]
    everything = all_pairs_tournaments + all_team_tournaments + all_individual_tournaments + c1_stages
    readable = [t1, t_sheet, t_ts, tm_run, finished[0], tm_fin, t_draft]
    for tid in readable:
        aim(f"GET {T}/{{id}}", {"id": tid})
        aim(f"GET {T}/{{id}}/export", {"id": tid})
        aim(f"GET {T}/{{id}}/standings", {"id": tid})
        aim(f"GET {T}/{{id}}/penalties", {"id": tid})
    for tid in [t1, t_sheet, t_draft, finished[0]]:
        aim(f"GET {T}/{{id}}/pairs", {"id": tid})
    for tid in [tm_run, tm_draft, tm_fin]:
        aim(f"GET {T}/{{id}}/teams", {"id": tid})
    for n in range(1, ROUNDS + 1):
        aim(f"GET {T}/{{id}}/rounds/{{n}}", {"id": t1, "n": n})
        for table in range(1, PAIRS // 2 + 1):
            aim(f"GET {T}/{{id}}/rounds/{{n}}/tables/{{table}}/sheet",
                {"id": t1, "n": n, "table": table})
    aim(f"GET {T}/{{id}}/rounds/{{n}}", {"id": tm_run, "n": 3})
    for p in pairs1:
        aim(f"GET {T}/{{id}}/pairs/{{number}}/card", {"id": t1, "number": p["number"]})
    for t in teams_run:
        aim(f"GET {T}/{{id}}/teams/{{number}}/card", {"id": tm_run, "number": t["number"]})

    # settings: a draft of each kind (kind itself never changes)
    for venue in ["Circolo", "Sala grande", "Bar Sport"]:
        aim(f"PUT {T}/{{id}}", {"id": t_draft}, {**draft_body, "venue": venue})
    aim(f"POST {T}", body={**draft_body, "name": "Nuovo torneo"})
    aim(f"POST {T}", body={**draft_body, "name": "Nuove squadre", "kind": "teams"})
    aim(f"POST {T}", body={**draft_body, "name": "Torneo a totali", "sheet_mode": "totals",
                           "minutes_per_round": 45, "bye_vp": 12})
    small = json.loads(sample("--pairs", "4", "--rounds", "1", "--seed", "81"))
    aim(f"POST {T}/import", body=small)
    aim(f"POST {T}/import", body=json.loads(sample("--teams", "4", "--rounds", "1", "--seed", "82")))

    # close / reopen: running ones to close, finished ones to reopen (and
    # close again)
    for tid in closing + finished:
        aim(f"POST {T}/{{id}}/close", {"id": tid})
    for tid in finished:
        aim(f"POST {T}/{{id}}/reopen", {"id": tid}, {"reason": "a sheet was entered wrong"})
    for tid in starts:
        aim(f"POST {T}/{{id}}/start", {"id": tid})
    aim(f"POST {T}/{{id}}/redraw", {"id": t_redraw})

    # pairs: registration on the draft, withdrawals on a running one
    for i, p in enumerate(draft_pairs):
        body = {"p1_surname": SURNAMES[i], "p1_name": "Anna", "p2_surname": SURNAMES[i + 1],
                "p2_name": "Luca", "p1_club": "Circolo"}
        aim(f"PUT {T}/{{id}}/pairs/{{pid}}", {"id": t_draft, "pid": p["id"]}, body)
        for action in ("check_in", "undo"):
            aim(f"POST {T}/{{id}}/pairs/{{pid}}/checkin", {"id": t_draft, "pid": p["id"]},
                {"action": action})
    for p in call("GET", f"/tournaments/{t_wd}/pairs"):
        for action in ("withdraw", "reinstate"):
            aim(f"POST {T}/{{id}}/pairs/{{pid}}/withdraw", {"id": t_wd, "pid": p["id"]},
                {"action": action})
    aim(f"POST {T}/{{id}}/pairs", {"id": t_draft}, make="pair")
    aim(f"POST {T}/{{id}}/pairs/import", {"id": t_draft}, make="csv")

    # rounds: the next round, a named round already made, the clock
    for tid in nexts:
        aim(f"POST {T}/{{id}}/rounds", {"id": tid}, {})
    for n in range(1, ROUNDS + 1):
        aim(f"POST {T}/{{id}}/rounds", {"id": t1}, {"round": n})
    for action in ("start", "pause", "resume", "time_out"):
        aim(f"POST {T}/{{id}}/rounds/{{n}}/clock", {"id": t_sheet, "n": sheet_round},
            {"action": action})
    seated = call("GET", f"/tournaments/{t_sheet}/rounds/{sheet_round}")["tables"]
    for table in seated:
        if table["ns_pair"] and table["ew_pair"]:
            for sheet in sheets[:3]:
                aim(f"PUT {T}/{{id}}/rounds/{{n}}/tables/{{table}}/sheet",
                    {"id": t_sheet, "n": sheet_round, "table": table["table"]},
                    {"sheet": sheet, "reason": "corrected at the desk"}, prepare="version")
    for n in range(1, ROUNDS + 1):
        for table in range(1, PAIRS // 2 + 1):
            aim(f"PUT {T}/{{id}}/rounds/{{n}}/tables/{{table}}/sheet",
                {"id": t1, "n": n, "table": table},
                {"sheet": sheets[(n * table) % len(sheets)], "reason": "corrected at the desk"},
                prepare="version")
            aim(f"PUT {T}/{{id}}/rounds/{{n}}/tables/{{table}}/adjusted",
                {"id": t1, "n": n, "table": table},
                {"ns_vp": 12, "ew_vp": 8, "reason": "table called late"}, prepare="version")

    # penalties
    for p in pairs1[:8]:
        for kind, amount in (("warning", None), ("vp", 1), ("mp", 50)):
            body = {"pair": p["id"], "round": 1, "kind": kind, "reason": "slow play"}
            if amount is not None:
                body["amount"] = amount
            aim(f"POST {T}/{{id}}/penalties", {"id": t1}, body)
    for pid in penalties[:4]:
        aim(f"POST {T}/{{id}}/penalties/{{pid}}/withdraw", {"id": t1, "pid": pid},
            {"reason": "given to the wrong pair"})
    for pid in penalties[4:]:
        aim(f"POST {T}/{{id}}/penalties/{{pid}}/reinstate", {"id": t1, "pid": pid},
            {"reason": "it was right"})

    # teams
    aim(f"POST {T}/{{id}}/teams", {"id": tm_draft}, make="team")
    for t in teams_draft:
        for value in (True, False):
            aim(f"POST {T}/{{id}}/teams/{{team}}/checkin", {"id": tm_draft, "team": t["id"]},
                {"checked_in": value})
    for t in teams_wd:
        aim(f"POST {T}/{{id}}/teams/{{team}}/withdraw", {"id": tm_wd, "team": t["id"]})
    for body in ({"scoring": "tables", "groups": 1}, {"scoring": "tables", "team_bye_vp": 12},
                 {"scoring": "tables"}):
        aim(f"PUT {T}/{{id}}/team-settings", {"id": tm_draft}, body)
    for t in teams_run:
        for pairs in ([[0, 1], [2, 3]], [[0, 2], [1, 3]], [[3, 0], [1, 2]]):
            aim(f"PUT {T}/{{id}}/teams/{{number}}/lineup", {"id": tm_run, "number": t["number"]},
                {"round": 3, "pairs": pairs})
            aim(f"POST {T}/{{id}}/teams/{{number}}/lineup", {"id": tm_run, "number": t["number"]},
                {"round": 3, "pairs": pairs, "code": t["code"]})

    # individual tournaments
    for tid in all_individual_tournaments:
        aim(f"GET {T}/{{id}}/players", {"id": tid})
        aim(f"GET {T}/{{id}}/standings", {"id": tid})
    aim(f"POST {T}/{{id}}/players", {"id": ind_draft}, make="player")
    for pl in ind_draft_players:
        for value in (True, False):
            aim(f"POST {T}/{{id}}/players/{{player}}/checkin", {"id": ind_draft, "player": pl["id"]},
                {"checked_in": value})
    for pl in ind_run_players:
        aim(f"POST {T}/{{id}}/players/{{player}}/withdraw", {"id": ind_run, "player": pl["id"]})

    # circuits
    # (the imported circuit only read: its season cards need its stages)
    for cid in (c1, c_stages):
        aim(f"GET {C}/{{id}}", {"id": cid})
        aim(f"GET {C}/{{id}}/standings", {"id": cid})
    for name in ("Circuito rinominato", "Circuito fuzz"):
        aim(f"PUT {C}/{{id}}", {"id": c_stages}, {**spec, "name": name})
    for person in people:
        aim(f"GET {C}/{{id}}/people/{{person}}", {"id": c1, "person": person})
    for tid in [*finished, tm_fin]:
        aim(f"POST {C}/{{id}}/stages", {"id": c_stages}, {"tournament_id": tid})
        aim(f"DELETE {C}/{{id}}/stages/{{tournament_id}}", {"id": c_stages, "tournament_id": tid})
    for cid in c_deletes:
        aim(f"DELETE {C}/{{id}}", {"id": cid})
    aim(f"POST {C}", body={**spec, "name": "Nuovo circuito"})
    aim(f"POST {C}", body={"name": "Circuito a punti", "points": {"method": "placing"}})

    # table side: the codes on the cards of round 2 of t_ts; the even tables
    # are entered (submitTableSheet), the odd ones entered and confirmed by
    # the other pair (the hook enters the sheet first and reads its version)
    tables, pair_codes = codes(t_ts)
    round2 = call("GET", f"/tournaments/{t_ts}/rounds/2")["tables"]
    for i, tb in enumerate(round2):
        code = tables.get(tb["table"])
        ns, ew = pair_codes.get(tb["ns_pair"]), pair_codes.get(tb["ew_pair"])
        if not (code and ns and ew):
            continue
        # Looked up once now: the server remembers a code found from this
        # address, and no longer counts it against the address's brake on
        # unknown codes (which the fuzzer's random codes exhaust).
        call("GET", f"/score/{code}")
        aim(f"GET {S}/{{code}}", {"code": code})
        sheet = sheets[i % len(sheets)]
        if i % 2 == 0:
            aim(f"POST {S}/{{code}}/sheet", {"code": code},
                {"pair_code": ns, "round": 2, "sheet": sheet})
        else:
            aim(f"POST {S}/{{code}}/confirm", {"code": code},
                {"pair_code": ew, "agree": True},
                prepare={"enter": {"pair_code": ns, "round": 2, "sheet": sheet}})

    # entries online (issue 36): a draft open to entries with room for
    # four, four entries made by the seed (their private tokens); fresh
    # names for the form (the seeded ones would be already_entered)
    E = "/api/v1/entries"
    t_online, _ = new_tournament("Iscrizioni aperte", online_entries=True, capacity=4)
    everything.append(t_online)
    tokens = [call("POST", f"/tournaments/{t_online}/entries",
                   {"players": [{"surname": f"Online{i}", "name": "Anna"},
                                {"surname": f"Online{i}", "name": "Luca"}],
                    "email": f"online{i}@example.org", "consent": True})["token"]
              for i in range(6)]
    for token in tokens:
        aim(f"GET {E}/{{token}}", {"token": token})
    for token in tokens[3:]:
        aim(f"DELETE {E}/{{token}}", {"token": token})
    aim(f"GET {T}/{{id}}/entries", {"id": t_online})
    aim(f"POST {T}/{{id}}/entries", {"id": t_online}, make="entry")
    aim("POST /api/v1/members/import",
        body="tessera;cognome;nome;scadenza\nAB1;Rossi;Maria;2027-12-31\nAB2;Bianchi;Luca;2027-12-31\n",
        media="text/csv")

    # rules: the engine's pure computations, on bodies it takes
    R = "/api/v1/rules"
    for i, sheet in enumerate(sheets[:6]):
        aim(f"POST {R}/check-sheet", body={"profile": ["codice", "classic"][i % 2],
                                           "hands_per_round": 3, **sheet})
    for cards in (["5H", "6H", "7H"], ["KS", "KH", "KD"], ["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
                  ["2D", "5H", "6H", "7H"], ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]):
        aim(f"POST {R}/meld", body={"cards": cards})
    for difference, hands in ((0, 3), (215, 3), (-1400, 4), (90, 3)):
        aim(f"POST {R}/vp", body={"difference": difference, "hands": hands})
    for cards in (["AS", "7H", "KD", "2C"], ["3H", "3D", "9S", "JC"], ["KS", "QS", "JS", "10S"]):
        aim(f"POST {R}/seat-draw", body={"cards": cards})
    for entries, scheme in ((20, ["50", "30", "20"]), (8, ["100"]), (45, ["40", "25", "15", "12", "8"])):
        aim(f"POST {R}/prizes", body={"entries": entries, "entry_fee": "10",
                                      "prize_share_percent": "70", "scheme": scheme})
    aim(f"POST {R}/prizes", body={"entries": 30, "entry_fee": "15.50", "prize_share_percent": "65",
                                  "guaranteed_pool": "200",
                                  "payout": [{"min_entries": 1, "scheme": ["100"]},
                                             {"min_entries": 12, "scheme": ["50", "30", "20"]}]})

    seed = {
        "aims": aims,
        "protected": {"tournament": sorted(set(everything)),
                      "circuit": sorted({c1, c_stages, *c_deletes})},
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(seed, f)
    print(f"fuzz_seed: {len(everything)} tournaments, 2 + {len(c_deletes)} circuits, "
          f"aims for {len(aims)} operations")


if __name__ == "__main__":
    main()
