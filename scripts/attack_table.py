"""An outsider on the same network attacks a live server (127.0.0.1) with a passcode set:
seats, replays, passcode guesses, caches and query strings. Prints what got through."""

from __future__ import annotations

import re
import sys
import threading
import uuid

import requests

BASE = sys.argv[1]
EDIT = sys.argv[2]  # the scorekeeper's edit link (the table's secret; the attacker lacks it)
PASSCODE = sys.argv[3]
found: list[str] = []


def csrf(session: requests.Session, path: str = "/passcode") -> str:
    page = session.get(BASE + path).text
    m = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page) or re.search(
        r'value="([^"]+)"[^>]*name="csrf_token"', page
    )
    return m.group(1) if m else ""


def check(ok: bool, what: str) -> None:
    print(("held  " if ok else "FELL  ") + what)
    if not ok:
        found.append(what)


# 4. passcode guesses
def guess(session: requests.Session, headers: dict | None = None) -> int:
    t = csrf(session)
    return session.post(
        f"{BASE}/passcode",
        data={"passcode": "guess-" + uuid.uuid4().hex[:6], "csrf_token": t},
        headers=headers or {},
        allow_redirects=False,
    ).status_code


# the table: the scorekeeper's phone opens the game
keeper = requests.Session()
page = keeper.get(f"{BASE}/g/{EDIT}").text
join = re.search(r'href="https?://[^"]*/j/([A-Za-z0-9_-]+)', page)
assert join, "the scorekeeper's page shows a join link"
join_token = join.group(1)

# 1. seats: an outsider with everything public
out = requests.Session()
export = out.get(f"{BASE}/history/export.json").text
shares = re.findall(r'"key":\s*"([A-Za-z0-9_-]{10,})"', export)
check(bool(shares), "precondition: the export lists share tokens (public by decision)")
share = shares[0]
check(join_token not in export and EDIT not in export, "export holds no join secret or edit link")
for url in (f"/s/{share}", f"/s/{share}/board", f"/j/{share}", "/", "/history/"):
    body = out.get(BASE + url).text
    check(join_token not in body, f"GET {url} shows no join secret")
token = csrf(out)
seat_ids = re.findall(r'"seat(?:_id)?":\s*(\d+)', export) or [str(i) for i in range(1, 40)]
taken = 0
for seat in range(1, 40):
    r = out.post(
        f"{BASE}/j/{share}", data={"seat": seat, "csrf_token": token}, allow_redirects=False
    )
    taken += r.status_code == 303 and "/p/" in r.headers.get("Location", "")
check(taken == 0, f"POST /j/<share> with seats 1..39: {taken} seats taken")
r = out.post(
    f"{BASE}/p/{share}",
    data={"double": "9", "total": "0", "csrf_token": token},
    allow_redirects=False,
)
check(
    r.status_code in (303, 403) and "/p/" not in r.headers.get("Location", ""),
    f"POST /p/<share> refused ({r.status_code})",
)
r = out.post(
    f"{BASE}/g/{share}/seats/lock", data={"locked": "0", "csrf_token": token}, allow_redirects=False
)
check(r.status_code == 404, f"unlocking seats with the share token: {r.status_code}")

# 2. replays: a key sent by the table's phone, replayed by the outsider
bob = requests.Session()
t = csrf(bob, f"/j/{join_token}")
r = bob.post(
    f"{BASE}/j/{join_token}",
    data={"seat": seat_ids[0] if seat_ids else 1, "csrf_token": t},
    allow_redirects=False,
)
key = str(uuid.uuid4())
t = csrf(bob, f"/p/{share}")
first = bob.post(
    f"{BASE}/p/{share}",
    data={"double": "x", "total": "12", "csrf_token": t},
    headers={"Idempotency-Key": key},
    allow_redirects=False,
)
again = out.post(
    f"{BASE}/p/{share}",
    data={"double": "x", "total": "12", "csrf_token": token},
    headers={"Idempotency-Key": key},
    allow_redirects=False,
)
check(
    "Idempotent-Replay" not in again.headers,
    f"outsider replaying a phone's key gets its own answer ({again.status_code})",
)
check(t not in again.text, "no CSRF token of the phone in the outsider's answer")

# 3. caches
for url, s in (
    (f"/g/{EDIT}", keeper),
    (f"/j/{join_token}", out),
    (f"/j/{share}", out),
    (f"/p/{share}", bob),
    ("/passcode", out),
):
    cc = s.get(BASE + url, allow_redirects=False).headers.get("Cache-Control", "")
    check(cc == "no-store", f"Cache-Control of {url.split('/')[1] or url}: {cc!r}")
links = re.findall(r'(?:href|action)="([^"]*\?[^"]*)"', keeper.get(f"{BASE}/g/{EDIT}").text)
bad = [
    link for link in links if any(t in link.partition("?")[2] for t in (EDIT, share, join_token))
]
check(not bad, f"no token in a query string on the game page ({bad[:2]})")
r = out.get(BASE + "/", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "1.2.3.4"})
check(
    "Strict-Transport-Security" not in r.headers,
    "forged X-Forwarded-Proto gives no HSTS (no trusted proxy)",
)

one = requests.Session()
first_try = guess(one)  # makes this cookie's device: 1 try
tok = csrf(one)
codes: list[int] = []


def fire() -> None:
    codes.append(
        one.post(
            f"{BASE}/passcode", data={"passcode": "x", "csrf_token": tok}, allow_redirects=False
        ).status_code
    )


threads = [threading.Thread(target=fire) for _ in range(40)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
check(
    codes.count(200) + (first_try == 200) <= 5,
    f"1 guess, then 40 at once from one cookie: {codes.count(200) + (first_try == 200)} judged",
)
# the honest phone, after all that
honest = requests.Session()
t = csrf(honest)
r = honest.post(
    f"{BASE}/passcode", data={"passcode": PASSCODE, "csrf_token": t}, allow_redirects=False
)
code = re.search(r'class="admit-code"><strong>([A-Z0-9-]+)<', r.text)
check(
    r.status_code == 429 and bool(code),
    f"the honest new phone is limited and shows a code ({r.status_code})",
)
if code:
    t = csrf(keeper, f"/g/{EDIT}/admit")
    a = keeper.post(
        f"{BASE}/g/{EDIT}/admit",
        data={"code": code.group(1), "csrf_token": t},
        allow_redirects=False,
    )
    t = csrf(honest)
    r = honest.post(
        f"{BASE}/passcode", data={"passcode": PASSCODE, "csrf_token": t}, allow_redirects=False
    )
    check(
        a.status_code == 303 and r.status_code == 303,
        f"let in by the scorekeeper, it enters the passcode ({a.status_code}, {r.status_code})",
    )
judged = 0
for _ in range(200):  # a fresh cookie for every guess, a forged X-Forwarded-For each time
    code = guess(requests.Session(), {"X-Forwarded-For": f"10.0.{_ // 250}.{_ % 250}"})
    judged += code == 200
check(judged <= 30, f"200 guesses with fresh cookies and forged addresses: {judged} judged")
t = csrf(out)
r = out.post(
    f"{BASE}/passcode/admit", data={"code": "AAAA-AAAA", "csrf_token": t}, allow_redirects=False
)
check(
    r.status_code in (302, 303) and "/passcode" in r.headers.get("Location", ""),
    "an outsider cannot use the host's 'Let a phone in'",
)
print(f"\n{len(found)} fell:", *found, sep="\n  ")
