"""A race for a plain ephemeral lock node, kazoo style, for package peers.

usage: plain_race.py CONNECT PATH SESSIONS HOLD_MIN_S HOLD_MAX_S

Each of SESSIONS contenders has its own KazooClient (its own session) and
thread, and loops: create PATH as an ephemeral node; if it exists, watch it
with exists and try again when it goes (every waiter races); once created,
hold it for a time drawn between HOLD_MIN_S and HOLD_MAX_S, delete it, and
rest a little. It prints "session HEX" per contender once connected, then
"held HEX" at each grant and "released HEX" at each release. "quit" or EOF
on stdin stops the race: each contender releases and closes its session.
"""
import random
import sys
import threading

from kazoo.client import KazooClient
from kazoo.exceptions import NoNodeError, NodeExistsError

_out = threading.Lock()
stop = threading.Event()


def say(*words):
    with _out:
        sys.stdout.write(" ".join(words) + "\n")
        sys.stdout.flush()


def contend(connect, path, hold_min, hold_max):
    client = KazooClient(hosts=connect, timeout=10)
    client.start()
    session = "0x%x" % client.client_id[0]
    say("session", session)
    try:
        while not stop.is_set():
            try:
                client.create(path, b"", ephemeral=True, makepath=True)
            except NodeExistsError:
                gone = threading.Event()
                if client.exists(path, watch=lambda event: gone.set()):
                    while not gone.wait(0.05) and not stop.is_set():
                        pass
                continue
            say("held", session)
            stop.wait(random.uniform(hold_min, hold_max))
            try:
                client.delete(path)
            except NoNodeError:
                pass
            say("released", session)
            stop.wait(random.uniform(0.01, 0.05))
    finally:
        client.stop()
        client.close()


def main():
    connect, path = sys.argv[1], sys.argv[2]
    sessions, hold_min, hold_max = int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
    threads = [threading.Thread(target=contend, args=(connect, path, hold_min, hold_max), daemon=True)
               for _ in range(sessions)]
    for t in threads:
        t.start()
    for line in iter(sys.stdin.readline, ""):
        if line.strip() == "quit":
            break
    stop.set()
    for t in threads:
        t.join(15)


if __name__ == "__main__":
    main()
